/// Why a new attempt (a new Unico process) was requested.
public enum AttemptTrigger: String, Hashable, Sendable, Codable, CaseIterable {
    /// The first attempt of a journey.
    case initial
    /// The app asked for a token and the current one, not yet opened, had under 60 s left.
    case tokenRefresh
    /// The app asked for a token to open a new capture: a retry was allowed, or the previous
    /// capture was opened (each capture gets its own process).
    case tokenRequest
    /// A worker ran a scheduled retry.
    case retry
}
