import Foundation

/// The journey ended without a result.
public struct JourneyAbandoned: JourneyEventPayload {
    public static let eventType = "JourneyAbandoned"
    public let attempt: Int
    public let occurredAt: Date
    public let reason: AbandonReason

    public init(attempt: Int, occurredAt: Date, reason: AbandonReason) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.reason = reason
    }
}
