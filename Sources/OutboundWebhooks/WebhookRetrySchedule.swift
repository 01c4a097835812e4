import Foundation

/// When to retry a failed delivery: exponential-ish backoff with full jitter.
///
/// The default intervals after attempts 1, 2, ... are 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
/// 14 h, 20 h, 24 h (upper bounds, about 85.6 h in all), so a message gets 11 attempts. With
/// full jitter each wait is uniform in [`minimumDelay`, interval]; so that a receiver outage of
/// three days is always covered, a delivery is given up only once its attempts are spent *and*
/// `minimumRetryWindow` (72 h by default) has passed since it was enqueued; until then it keeps
/// retrying at the last interval.
public struct WebhookRetrySchedule: Sendable, Equatable {
    public var intervals: [TimeInterval]
    /// The shortest wait; 1 s by default.
    public var minimumDelay: TimeInterval
    /// How long a delivery is retried at least; 72 h by default.
    public var minimumRetryWindow: TimeInterval

    public init(
        intervals: [TimeInterval] = [5, 300, 1800, 7200, 18000, 36000, 36000, 50400, 72000, 86400],
        minimumDelay: TimeInterval = 1,
        minimumRetryWindow: TimeInterval = 72 * 3600
    ) {
        precondition(!intervals.isEmpty, "a retry schedule needs at least one interval")
        self.intervals = intervals
        self.minimumDelay = minimumDelay
        self.minimumRetryWindow = minimumRetryWindow
    }

    /// Attempts before giving up (when the retry window has passed).
    public var maxAttempts: Int { intervals.count + 1 }

    /// The upper bound of the wait after attempt `attempt` (1-based).
    public func interval(afterAttempt attempt: Int) -> TimeInterval {
        intervals[min(max(attempt, 1), intervals.count) - 1]
    }

    /// The wait after attempt `attempt`, given `random` uniform in [0, 1), and an optional
    /// `Retry-After` from the receiver (never retried earlier than that).
    public func delay(afterAttempt attempt: Int, random: Double, retryAfter: TimeInterval? = nil) -> TimeInterval {
        let jittered = max(minimumDelay, interval(afterAttempt: attempt) * min(max(random, 0), 1))
        return max(jittered, retryAfter ?? 0)
    }

    /// Whether a delivery that has made `attempts` attempts and was enqueued at `createdAt` is done for.
    public func shouldGiveUp(attempts: Int, createdAt: Date, now: Date) -> Bool {
        attempts >= maxAttempts && now.timeIntervalSince(createdAt) >= minimumRetryWindow
    }
}
