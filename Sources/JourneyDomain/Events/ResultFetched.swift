import Foundation

/// Get Process returned a final state for the attempt's process.
public struct ResultFetched: JourneyEventPayload {
    public static let eventType = "ResultFetched"
    public var attempt: Int
    public var occurredAt: Date
    public var processID: ProcessID
    public var processState: ProcessState
    public var processResult: ProcessResult
    /// `data.humanToken.value`, sealed; present with an OK result.
    public var humanToken: SealedField?
    /// Unico's `finishedAt`, when given.
    public var finishedAt: Date?

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
        self.occurredAt = occurredAt
        self.processID = processID
        self.processState = processState
        self.processResult = processResult
        self.humanToken = humanToken
        self.finishedAt = finishedAt
    }
}
