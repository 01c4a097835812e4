import Foundation

/// A tenant's rate budget shared with other processes (one row in PostgreSQL), asked after a
/// process's own ``HumanTokenRateLimiter`` admits a call.
public protocol SharedRateBudget: Sendable {
    /// Takes one call's token; nil when taken, else how long to wait before asking again.
    /// Background calls leave a reserve for live ones.
    func take(_ priority: RequestPriority) async -> Duration?
    /// Stops every process's calls for `seconds` (a 429's `Retry-After`).
    func pause(for seconds: TimeInterval) async
}
