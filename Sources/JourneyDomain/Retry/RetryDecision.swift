import Foundation

/// What the retry policy says after an attempt failed.
public enum RetryDecision: Hashable, Sendable {
    /// Start attempt n+1 with a fresh process at this time.
    case retry(at: Date)
    /// Stop; the journey is abandoned for this reason.
    case giveUp(GiveUpReason)

    /// Why a policy stops retrying.
    public enum GiveUpReason: Hashable, Sendable {
        /// The failure cannot be cured by a fresh process; carries the SDK code when there is one.
        case nonRetryable(SDKErrorCode?)
        /// The attempt that failed was the last one the policy allows.
        case attemptsExhausted(Int)
    }
}
