import Foundation

/// Get Process answered, but the process has not finished; the next fetch is scheduled.
public struct ResultPending: JourneyEventPayload {
    public static let eventType = "ResultPending"
    public let attempt: Int
    public let occurredAt: Date
    public let processState: ProcessState
    /// Fetches of this attempt that found no result, this one included.
    public let pendingFetches: Int
    public let nextFetchAt: Date

    public init(attempt: Int, occurredAt: Date, processState: ProcessState, pendingFetches: Int, nextFetchAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.processState = processState
        self.pendingFetches = pendingFetches
        self.nextFetchAt = nextFetchAt.roundedToMicroseconds
    }
}
