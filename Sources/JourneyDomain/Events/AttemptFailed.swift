import Foundation

/// The attempt ended without a result; carries the retry policy's decision.
public struct AttemptFailed: JourneyEventPayload {
    public static let eventType = "AttemptFailed"
    public let attempt: Int
    public let occurredAt: Date
    public let reason: AttemptFailureReason
    /// When attempt n+1 is due; nil when the policy gave up and `JourneyAbandoned` follows.
    public let retryAt: Date?

    public init(attempt: Int, occurredAt: Date, reason: AttemptFailureReason, retryAt: Date?) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.reason = reason
        self.retryAt = retryAt?.roundedToMicroseconds
    }
}
