/// How a Create Process whose answer was lost is reconciled.
public enum ProcessLookup: String, Sendable, Hashable, CaseIterable {
    /// Search the tenant's processes by `clientReference` (ASSUMED endpoint; the emulator serves
    /// it, and it is the emulator's default).
    case search
    /// Never search: the attempt is closed as unknown after the token's lifetime and the next
    /// attempt gets a new reference. The default for real Unico environments, which document no search.
    case none
}
