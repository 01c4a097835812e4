import Foundation

/// The journey ended with Unico's final answer.
public struct JourneyCompleted: JourneyEventPayload {
    public static let eventType = "JourneyCompleted"
    public var attempt: Int
    public var occurredAt: Date
    public var outcome: JourneyOutcome
    public var processID: ProcessID
    /// The Human Token, sealed; present when approved.
    public var humanToken: SealedField?

    public init(
        attempt: Int,
        occurredAt: Date,
        outcome: JourneyOutcome,
        processID: ProcessID,
        humanToken: SealedField? = nil
    ) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.outcome = outcome
        self.processID = processID
        self.humanToken = humanToken
    }
}
