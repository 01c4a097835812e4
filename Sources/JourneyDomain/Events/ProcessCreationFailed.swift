import Foundation

/// Create Process failed for the attempt; an `AttemptFailed` follows.
public struct ProcessCreationFailed: JourneyEventPayload {
    public static let eventType = "ProcessCreationFailed"
    public let attempt: Int
    public let occurredAt: Date
    public let failure: ProcessCreationFailure

    public init(attempt: Int, occurredAt: Date, failure: ProcessCreationFailure) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.failure = failure
    }
}
