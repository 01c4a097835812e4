/// The Unico environment the SDK captures in; it must be the one the process was created in.
///
/// Case names follow the seed (`.PROD`, `.UAT`); raw values are what the emulator expects.
public enum EnvironmentEnum: String, Sendable, Hashable, CaseIterable {
    case PROD
    case UAT
}
