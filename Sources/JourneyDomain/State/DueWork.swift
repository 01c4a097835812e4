import Foundation

/// The next thing a worker must do for a journey, and when.
public struct DueWork: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// Send `.retry`: start the next attempt with a fresh process (link journeys), or allow it
        /// (SDK journeys: `RetryAllowed`).
        case retry
        /// Create Process has no recorded answer: ask Unico by client reference, then record it.
        case reconcileProcessCreation
        /// Send `.expireToken` once the `webAppToken` is past its lifetime.
        case expireToken
        /// Call Get Process and send `.recordResult`.
        case fetchResult
        /// Send `.abandonAbsent`: the allowed retry's token was never asked for.
        case abandonAbsent
        /// Send `.abandonAtDeadline`: the journey's deadline came before it completed.
        case abandonAtDeadline
        /// Send `.abandonAtMaxAge`: the journey is still open at its maximum age.
        case abandonAtMaxAge
    }

    public var kind: Kind
    /// The attempt the work is about (for `.retry`, the attempt that failed).
    public var attempt: Int
    public var at: Date

    public init(kind: Kind, attempt: Int, at: Date) {
        self.kind = kind
        self.attempt = attempt
        self.at = at
    }
}
