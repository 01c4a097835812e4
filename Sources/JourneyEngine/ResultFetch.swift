import JourneyDomain

/// What fetching a journey's result did.
public enum ResultFetch: Sendable, Equatable {
    /// The journey was not awaiting a result (already completed, failed, unknown): nothing was called.
    case nothingToFetch
    /// Unico has not finished: `ResultPending` was recorded.
    case pending
    /// `ResultFetched` (and the completion or the attempt's failure) was recorded.
    case recorded(JourneyStatus)
    /// Another writer recorded the result first.
    case alreadyRecorded
}
