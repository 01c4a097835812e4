/// Where a journey stands.
public enum JourneyStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// No event yet.
    case notStarted
    /// `JourneyStarted` without an attempt.
    case started
    /// An attempt's Create Process intent is recorded; Unico has not answered yet.
    case creatingProcess
    /// The attempt's process exists; its token has not been handed out (awaiting token).
    case processCreated
    /// The app holds the attempt's `webAppToken`.
    case tokenIssued
    /// The app opened the capture with it.
    case captureOpened
    /// A success callback or a webhook arrived; Get Process is due.
    case awaitingResult
    /// The attempt failed; the next attempt is allowed at `nextDue` (link journeys: the workers
    /// create it then).
    case retryScheduled
    /// SDK journeys: the next attempt is allowed; the app's next token request creates its process.
    case retryAvailable
    /// The attempt failed and the policy gave up; `JourneyAbandoned` follows in the same append.
    case attemptFailed
    /// Final: Unico answered (approved, rejected or failed).
    case completed
    /// Final: given up without a result.
    case abandoned

    /// True for `completed` and `abandoned`.
    public var isTerminal: Bool { self == .completed || self == .abandoned }

    /// True while the app may hold a live token of the current attempt.
    public var hasOutstandingToken: Bool {
        self == .processCreated || self == .tokenIssued || self == .captureOpened
    }
}
