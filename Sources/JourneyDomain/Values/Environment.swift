/// Unico environment; the process and the SDK must use the same one.
public enum Environment: String, Sendable, Codable, CaseIterable {
    case uat = "UAT"
    case prod = "PROD"
}
