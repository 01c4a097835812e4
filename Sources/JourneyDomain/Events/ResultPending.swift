import Foundation

/// Get Process answered, but the process has not finished; the next fetch is scheduled.
public struct ResultPending: JourneyEventPayload {
    public static let eventType = "ResultPending"
    public var attempt: Int
    public var occurredAt: Date
    public var processState: ProcessState
    /// Fetches of this attempt that found no result, this one included.
    public var pendingFetches: Int
    public var nextFetchAt: Date

    public init(attempt: Int, occurredAt: Date, processState: ProcessState, pendingFetches: Int, nextFetchAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.processState = processState
        self.pendingFetches = pendingFetches
        self.nextFetchAt = nextFetchAt
    }
}
