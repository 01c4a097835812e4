/// How a Create Process whose answer was lost is reconciled.
public enum ProcessLookup: String, Sendable, Hashable, CaseIterable {
    /// Search the tenant's processes by `clientReference` (ASSUMED endpoint; the emulator serves it).
    case search
    /// Never search: the attempt is closed as unknown after the token's lifetime and the next
    /// attempt gets a new reference.
    case none
}
