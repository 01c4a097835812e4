import Foundation

/// The journey ended with Unico's final answer.
public struct JourneyCompleted: JourneyEventPayload {
    public static let eventType = "JourneyCompleted"
    public let attempt: Int
    public let occurredAt: Date
    public let outcome: JourneyOutcome
    public let processID: ProcessID
    /// The Human Token, sealed; present when approved.
    public let humanToken: SealedField?

    public init(
        attempt: Int,
        occurredAt: Date,
        outcome: JourneyOutcome,
        processID: ProcessID,
        humanToken: SealedField? = nil
    ) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.outcome = outcome
        self.processID = processID
        self.humanToken = humanToken
    }
}
