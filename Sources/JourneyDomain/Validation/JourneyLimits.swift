import Foundation
import Timestamps

/// A start's own limits, within the deployment's: an attempt budget (`maximumAttempts`, 1 to the
/// deployment retry policy's) and a `deadline` (an RFC 3339 timestamp with its offset, after the
/// start and at most ``JourneyTiming/maximumDeadline`` after it, nor past the journey's maximum
/// age). Each check names its field.
public enum JourneyLimits {
    /// The accepted form of a deadline, for messages.
    public static let deadlineFormat = "an RFC 3339 timestamp with offset such as 2026-11-29T18:00:00Z"

    /// The budget, or the issue naming `field`: a whole number from 1 to `policy.maximumAttempts`.
    public static func maximumAttempts(
        _ value: Int?, policy: RetryPolicy,
        field: String = "maximumAttempts"
    ) -> Result<Int, FieldIssue> {
        let allowed = 1...policy.maximumAttempts
        guard let value, allowed.contains(value) else {
            return .failure(
                FieldIssue(
                    field: field, code: .invalidValue,
                    message: "\(field) must be a whole number from 1 to \(policy.maximumAttempts) "
                        + "(this deployment's retry policy)"))
        }
        return .success(value)
    }

    /// The deadline `text` names, or the issue naming `field`: `text` must be
    /// ``deadlineFormat``, later than `now` and at most `maximum` after it (default
    /// ``JourneyTiming/maximumDeadline``; a start passes the shorter of it and the policy's
    /// `maximumAge`, see ``maximumDeadline(policy:)``).
    public static func deadline(
        _ text: String?, now: Date, maximum: TimeInterval = JourneyTiming.maximumDeadline,
        field: String = "deadline"
    ) -> Result<Date, FieldIssue> {
        guard let text, let date = RFC3339.date(from: text) else {
            return .failure(FieldIssue(field: field, code: .invalidFormat, message: "\(field) must be \(deadlineFormat)"))
        }
        guard date > now else {
            return .failure(FieldIssue(field: field, code: .invalidValue, message: "\(field) must be in the future"))
        }
        guard date.timeIntervalSince(now) <= maximum else {
            let whole = Int(maximum)
            let span = whole % 86_400 == 0 ? "\(whole / 86_400) days" : "\(whole) s"
            return .failure(
                FieldIssue(
                    field: field, code: .invalidValue,
                    message: "\(field) must be at most \(span) after the start"))
        }
        return .success(date.roundedToMicroseconds)
    }

    /// The latest deadline a start under `policy` may set, counted from the start: the shorter of
    /// ``JourneyTiming/maximumDeadline`` and the policy's `maximumAge` (the journey ends then anyway).
    public static func maximumDeadline(policy: RetryPolicy) -> TimeInterval {
        min(JourneyTiming.maximumDeadline, policy.maximumAge)
    }

    /// `policy` with its `maximumAttempts` lowered to `maximumAttempts` (never raised, never below 1).
    public static func policy(_ policy: RetryPolicy, maximumAttempts: Int?) -> RetryPolicy {
        guard let maximumAttempts else { return policy }
        var lowered = policy
        lowered.maximumAttempts = max(1, min(policy.maximumAttempts, maximumAttempts))
        return lowered
    }
}
