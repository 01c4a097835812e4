import Foundation
import Timestamps

/// Why a journey was abandoned without a result.
public struct AbandonReason: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The retry policy allowed no further attempt.
        case attemptsExhausted
        /// The last failure cannot be cured by a fresh process.
        case nonRetryableFailure
        /// An operator or the company asked for it.
        case requested
        /// The company or an operator cancelled the journey (`JourneyCancelled`); `detail` is
        /// their reason.
        case cancelled
        /// A retry was allowed but the app never asked for its token within the policy's
        /// `abandonAfter`, or a started journey's app never asked for a first token within
        /// `JourneyTiming.firstCaptureWindow`.
        case userAbsent
        /// The deadline the start set came before the journey completed.
        case deadlineReached
        /// The journey was still open at its maximum age (the policy's `maximumAge`, counted
        /// from its start), whatever it waited for.
        case maxAgeReached
    }

    public var kind: Kind
    /// The SDK code behind the last failure, when there was one.
    public var sdkCode: SDKErrorCode?
    /// Short text for people; no personal data.
    public var detail: String

    public init(kind: Kind, sdkCode: SDKErrorCode? = nil, detail: String) {
        self.kind = kind
        self.sdkCode = sdkCode
        self.detail = detail
    }

    /// Abandonment asked for by a person or a system outside the journey.
    public static func requested(_ detail: String) -> AbandonReason {
        AbandonReason(kind: .requested, detail: detail)
    }

    /// A cancellation by the company or an operator, for `reason` (checked, no personal data).
    public static func cancelled(_ reason: String) -> AbandonReason {
        AbandonReason(kind: .cancelled, detail: reason)
    }

    /// The user did not come back for the retry allowed after attempt `attempt` (0: never asked
    /// for a first token after the start).
    public static func userAbsent(afterAttempt attempt: Int, waited: TimeInterval) -> AbandonReason {
        AbandonReason(
            kind: .userAbsent,
            detail: attempt == 0
                ? "no token asked for within \(Int(waited)) s of the start"
                : "no token asked for within \(Int(waited)) s after attempt \(attempt) failed")
    }

    /// The start's `deadline` passed before the journey completed.
    public static func deadlineReached(_ deadline: Date) -> AbandonReason {
        AbandonReason(kind: .deadlineReached, detail: "the deadline \(RFC3339.string(from: deadline)) passed")
    }

    /// The journey was still open `age` seconds after its start.
    public static func maxAgeReached(_ age: TimeInterval) -> AbandonReason {
        let whole = Int(age)
        let text = whole % 86_400 == 0 ? "\(whole / 86_400) days" : "\(whole) s"
        return AbandonReason(kind: .maxAgeReached, detail: "still open \(text) after its start (the maximum journey age)")
    }

    /// The reason that follows a policy's decision to give up after `failure`.
    public init(giveUp: RetryDecision.GiveUpReason, failure: AttemptFailureReason) {
        switch giveUp {
        case .nonRetryable(let code):
            self.init(kind: .nonRetryableFailure, sdkCode: code ?? failure.sdkCode, detail: failure.detail)
        case .attemptsExhausted(let attempts):
            self.init(
                kind: .attemptsExhausted,
                sdkCode: failure.sdkCode,
                detail: "\(attempts) attempt(s) used; last failure: \(failure.detail)"
            )
        }
    }
}
