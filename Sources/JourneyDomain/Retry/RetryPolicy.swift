import Foundation

/// How a journey retries failed attempts with fresh processes; shaped like Temporal's retry policy.
///
/// The delay after attempt `n` fails is `min(initialInterval × backoffCoefficient^(n-1), maximumInterval)`,
/// shortened by jitter of up to `jitterFraction` of itself. The policy is recorded in `JourneyStarted`,
/// so a journey keeps the policy it started with.
public struct RetryPolicy: Hashable, Sendable {
    /// Delay before the first retry. Default 10 s.
    public var initialInterval: TimeInterval
    /// Growth factor of the delay per attempt, at least 1. Default 2.0.
    public var backoffCoefficient: Double
    /// Cap on the delay before jitter, at least `initialInterval`. Default 300 s (one token lifetime).
    public var maximumInterval: TimeInterval
    /// Attempts in all, the first included, at least 1. Default 5.
    public var maximumAttempts: Int
    /// Share of the delay that jitter may remove, in 0...1. Default 0.2.
    public var jitterFraction: Double
    /// SDK codes never retried. Default: the catalog's non-retryable codes
    /// (73203, 73006, 73303, 73304, 73701, 74001).
    public var nonRetryableCodes: Set<SDKErrorCode>
    /// How long an opened capture holds its attempt after the token's expiry before the attempt
    /// can be expired and superseded, in seconds. Default 600 (10 minutes).
    public var captureGrace: TimeInterval
    /// How long an SDK journey waits for the app's token request once a retry is allowed before
    /// it is abandoned as `userAbsent`, in seconds. Default 1800 (30 minutes).
    public var abandonAfter: TimeInterval
    /// How long a link journey's attempt lives, in seconds: sent to Unico as the process's
    /// `expiresIn`, since the link lives as long as its process. Default 604800 (7 days,
    /// Unico's default); 60 s to 30 days.
    public var linkLifetime: TimeInterval
    /// How long a journey may stay open, counted from its start, in seconds: one still open then,
    /// whatever it waits for, is abandoned (`maxAgeReached`) by its due work and later falls
    /// under the retention of ended journeys. Default 2592000 (30 days); at least 60 s.
    public var maximumAge: TimeInterval

    /// Creates a policy; out-of-range values are clamped to the nearest valid one.
    public init(
        initialInterval: TimeInterval = 10,
        backoffCoefficient: Double = 2.0,
        maximumInterval: TimeInterval = 300,
        maximumAttempts: Int = 5,
        jitterFraction: Double = 0.2,
        nonRetryableCodes: Set<SDKErrorCode> = Set(SDKErrorCatalog.standard.nonRetryableCodes),
        captureGrace: TimeInterval = 600,
        abandonAfter: TimeInterval = 1800,
        linkLifetime: TimeInterval = RetryPolicy.defaultLinkLifetime,
        maximumAge: TimeInterval = RetryPolicy.defaultMaximumAge
    ) {
        let initial = initialInterval.isFinite ? max(0, initialInterval) : 0
        self.initialInterval = initial
        self.backoffCoefficient = backoffCoefficient.isFinite ? max(1, backoffCoefficient) : 1
        self.maximumInterval = maximumInterval.isFinite ? max(initial, maximumInterval) : initial
        self.maximumAttempts = max(1, maximumAttempts)
        self.jitterFraction = jitterFraction.isFinite ? min(1, max(0, jitterFraction)) : 0
        self.nonRetryableCodes = nonRetryableCodes
        self.captureGrace = captureGrace.isFinite ? max(0, captureGrace) : 600
        self.abandonAfter = abandonAfter.isFinite ? max(0, abandonAfter) : 1800
        self.linkLifetime = linkLifetime.isFinite ? min(2_592_000, max(60, linkLifetime)) : Self.defaultLinkLifetime
        self.maximumAge = maximumAge.isFinite ? max(60, maximumAge) : Self.defaultMaximumAge
    }

    /// Unico's default process lifetime, 7 days: a link journey's attempt when nothing else is set.
    public static let defaultLinkLifetime: TimeInterval = 604_800

    /// A journey's maximum age when nothing else is set, 30 days. Also the age of every journey
    /// whose recorded policy has none (started before maximum ages, or with this default): the
    /// value is part of the recorded format and must not change.
    public static let defaultMaximumAge: TimeInterval = 2_592_000

    /// The defaults stated on each property.
    public static let standard = RetryPolicy()

    /// Delay before the retry that follows failed attempt `attempt` (1-based).
    ///
    /// `randomUnit` in `0..<1` is drawn by the caller; 0 gives the full backoff, values near 1 remove
    /// nearly `jitterFraction` of it. Values outside the range are clamped.
    public func delay(forAttempt attempt: Int, randomUnit: Double) -> TimeInterval {
        let exponent = Double(max(1, attempt) - 1)
        let grown = initialInterval * pow(backoffCoefficient, exponent)
        let base = grown.isFinite ? min(grown, maximumInterval) : maximumInterval
        let unit = randomUnit.isFinite ? min(1, max(0, randomUnit)) : 0
        return base * (1 - jitterFraction * unit)
    }

    /// Decides whether failed attempt `attempt` gets a successor, and when.
    ///
    /// Gives up when the failure is not retryable or its SDK code is in `nonRetryableCodes`, then when
    /// `attempt` reached `maximumAttempts`; otherwise retries after ``delay(forAttempt:randomUnit:)``,
    /// never sooner than the failure's `retryAfter`. A drop-off the app reported (the user closed
    /// the capture, the session timed out) is retried at once: the user is there, and no Unico
    /// fault asks for a pause.
    public func nextRetry(
        after failure: AttemptFailureReason,
        attempt: Int,
        now: Date,
        randomUnit: Double
    ) -> RetryDecision {
        if let code = failure.sdkCode, nonRetryableCodes.contains(code) {
            return .giveUp(.nonRetryable(code))
        }
        guard failure.retryable else {
            return .giveUp(.nonRetryable(failure.sdkCode))
        }
        guard attempt < maximumAttempts else {
            return .giveUp(.attemptsExhausted(attempt))
        }
        if failure.kind.isUserDropOff { return .retry(at: now) }
        let delay = max(self.delay(forAttempt: attempt, randomUnit: randomUnit), failure.retryAfter ?? 0)
        return .retry(at: now.addingTimeInterval(delay))
    }
}
