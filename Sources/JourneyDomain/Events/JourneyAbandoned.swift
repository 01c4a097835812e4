import Foundation

/// The journey ended without a result.
public struct JourneyAbandoned: JourneyEventPayload {
    public static let eventType = "JourneyAbandoned"
    public var attempt: Int
    public var occurredAt: Date
    public var reason: AbandonReason

    public init(attempt: Int, occurredAt: Date, reason: AbandonReason) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.reason = reason
    }
}
