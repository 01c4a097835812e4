/// Why a new attempt (a new Unico process) was requested.
public enum AttemptTrigger: String, Hashable, Sendable, Codable, CaseIterable {
    /// The first attempt of a journey.
    case initial
    /// The app asked for a token and the current one had under 60 s left.
    case tokenRefresh
    /// The app asked for a token while a retry was scheduled.
    case tokenRequest
    /// A worker ran a scheduled retry.
    case retry
}
