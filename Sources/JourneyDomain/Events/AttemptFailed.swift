import Foundation

/// The attempt ended without a result; carries the retry policy's decision.
public struct AttemptFailed: JourneyEventPayload {
    public static let eventType = "AttemptFailed"
    public var attempt: Int
    public var occurredAt: Date
    public var reason: AttemptFailureReason
    /// When attempt n+1 is due; nil when the policy gave up and `JourneyAbandoned` follows.
    public var retryAt: Date?

    public init(attempt: Int, occurredAt: Date, reason: AttemptFailureReason, retryAt: Date?) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.reason = reason
        self.retryAt = retryAt
    }
}
