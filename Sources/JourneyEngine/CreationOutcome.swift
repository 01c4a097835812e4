import Foundation
import HumanTokenAPI

/// What a worker's Create Process (a retry's or a reconciled intent's) came to.
public enum CreationOutcome: Sendable, Equatable {
    /// The journey has no current attempt to create a process for.
    case stale
    /// No Unico client for the journey's environment here: nothing was called.
    case noUnicoClient
    /// The process was created and recorded.
    case created
    /// No answer (`timeout`, `transport`): the intent stays open for reconciliation.
    case leftOpen
    /// Unico refused; the failure is recorded and the retry policy decides.
    case failed
    /// SDK journeys: the next attempt was allowed (`RetryAllowed`); no process is created until
    /// the app asks for its token.
    case allowed
}

/// What reconciling an unanswered Create Process intent came to.
public enum Reconciliation: Sendable, Equatable {
    /// Nothing was found by client reference, so the process was created (or not): see the value.
    case creation(CreationOutcome)
    /// The lookup failed; nothing was recorded (try again later).
    case lookupFailed(HumanTokenAPIError)
    /// The lookup failed on the last try; the attempt is recorded as failed.
    case gaveUp
    /// The process Unico created for the intent was adopted.
    case adopted
    /// The process was found without readable tokens; the attempt is recorded as failed.
    case adoptedUnusable
    /// `lookup: none`, and the token's lifetime has not passed since the intent: try again then.
    case waiting(until: Date)
    /// `lookup: none`: the attempt is recorded as failed with its outcome unknown.
    case closedUnknown
}
