import Foundation

/// Create Process failed for the attempt; an `AttemptFailed` follows.
public struct ProcessCreationFailed: JourneyEventPayload {
    public static let eventType = "ProcessCreationFailed"
    public var attempt: Int
    public var occurredAt: Date
    public var failure: ProcessCreationFailure

    public init(attempt: Int, occurredAt: Date, failure: ProcessCreationFailure) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.failure = failure
    }
}
