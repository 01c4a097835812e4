import Foundation

/// Get Process returned a final state for the attempt's process.
public struct ResultFetched: JourneyEventPayload {
    public static let eventType = "ResultFetched"
    public let attempt: Int
    public let occurredAt: Date
    public let processID: ProcessID
    public let processState: ProcessState
    public let processResult: ProcessResult
    /// `data.humanToken.value`, sealed; present with an OK result.
    public let humanToken: SealedField?
    /// Unico's `finishedAt`, when given.
    public let finishedAt: Date?

    public init(
        attempt: Int,
        occurredAt: Date,
        processID: ProcessID,
        processState: ProcessState,
        processResult: ProcessResult,
        humanToken: SealedField? = nil,
        finishedAt: Date? = nil
    ) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.processID = processID
        self.processState = processState
        self.processResult = processResult
        self.humanToken = humanToken
        self.finishedAt = finishedAt?.roundedToMicroseconds
    }
}
