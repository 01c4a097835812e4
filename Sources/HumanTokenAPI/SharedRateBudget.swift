import Foundation

/// A tenant's rate budget shared with other processes (one row in PostgreSQL), asked after a
/// process's own ``HumanTokenRateLimiter`` admits a call.
public protocol SharedRateBudget: Sendable {
    /// Takes one call's token; nil when taken, else how long to wait before asking again.
    /// Background calls leave a reserve for live ones.
    func take(_ priority: RequestPriority) async -> Duration?
    /// Stops every process's calls for `seconds` (a 429's `Retry-After`).
    func pause(for seconds: TimeInterval) async
    /// The budget as taken by `caller` (a journeys tenant sharing the deployment's Unico account)
    /// within a share of its own; nil when callers have no shares. Default nil.
    func forCaller(_ caller: String) -> (any SharedRateBudget)?
}

extension SharedRateBudget {
    public func forCaller(_ caller: String) -> (any SharedRateBudget)? { nil }
}
