import Foundation
import JourneyDomain

extension RetryPolicy {
    /// Environment variables that set a deployment's retry policy (each optional; an absent one
    /// keeps the default stated on ``RetryPolicy``). The policy is frozen into journeys when they start.
    public enum Variable {
        /// Seconds before the first retry (default 10).
        public static let initialInterval = "JOURNEYS_RETRY_INITIAL_INTERVAL"
        /// Growth factor per attempt, at least 1 (default 2.0).
        public static let backoffCoefficient = "JOURNEYS_RETRY_BACKOFF_COEFFICIENT"
        /// Cap on the delay in seconds (default 300).
        public static let maximumInterval = "JOURNEYS_RETRY_MAXIMUM_INTERVAL"
        /// Attempts in all, the first included (default 5).
        public static let maximumAttempts = "JOURNEYS_RETRY_MAXIMUM_ATTEMPTS"
        /// Share of the delay jitter may remove, 0...1 (default 0.2).
        public static let jitterFraction = "JOURNEYS_RETRY_JITTER_FRACTION"
        /// Seconds an opened capture holds its attempt after the token's expiry (default 600).
        public static let captureGrace = "JOURNEYS_CAPTURE_GRACE"
        /// Seconds an SDK journey waits for the app's token request once a retry is allowed,
        /// before it is abandoned as `userAbsent` (default 1800).
        public static let abandonAfter = "JOURNEYS_RETRY_ABANDON_AFTER"
        /// Comma-separated SDK codes never retried; replaces the catalog's list (default
        /// 73203,73006,73303,73304,73701,74001). An empty value retries every code.
        public static let nonRetryableCodes = "JOURNEYS_RETRY_NON_RETRYABLE_CODES"
        /// Seconds a link journey's attempt (and its Unico process, `expiresIn`) lives, 60 s to
        /// 30 days (default 604800, Unico's 7 days).
        public static let linkLifetime = "JOURNEYS_LINK_LIFETIME"
        /// Seconds a journey may stay open after its start before it is abandoned as
        /// `maxAgeReached`, 1 hour to 365 days (default 2592000, 30 days).
        public static let maximumAge = "JOURNEYS_MAX_JOURNEY_AGE"
    }

    /// The policy `variables` describe; throws `invalid_configuration` naming the first bad variable.
    public static func fromEnvironment(_ variables: [String: String]) throws -> RetryPolicy {
        func number(_ name: String, _ range: ClosedRange<Double>) throws -> Double? {
            guard let text = variables[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw WorkerError(
                    .invalidConfiguration,
                    "\(name) must be a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        let standard = RetryPolicy.standard
        let initial = try number(Variable.initialInterval, 0...86_400) ?? standard.initialInterval
        let coefficient = try number(Variable.backoffCoefficient, 1...100) ?? standard.backoffCoefficient
        let maximum = try number(Variable.maximumInterval, 0...86_400) ?? max(standard.maximumInterval, initial)
        guard maximum >= initial else {
            throw WorkerError(
                .invalidConfiguration,
                "\(Variable.maximumInterval) must be at least \(Variable.initialInterval)")
        }
        let attempts = try number(Variable.maximumAttempts, 1...100)
        if let attempts, attempts.rounded() != attempts {
            throw WorkerError(.invalidConfiguration, "\(Variable.maximumAttempts) must be a whole number")
        }
        let jitter = try number(Variable.jitterFraction, 0...1) ?? standard.jitterFraction
        let grace = try number(Variable.captureGrace, 0...86_400) ?? standard.captureGrace
        let abandonAfter = try number(Variable.abandonAfter, 0...2_592_000) ?? standard.abandonAfter
        let linkLifetime = try number(Variable.linkLifetime, 60...2_592_000) ?? standard.linkLifetime
        let maximumAge = try number(Variable.maximumAge, 3600...31_536_000) ?? standard.maximumAge
        var codes = standard.nonRetryableCodes
        if let text = variables[Variable.nonRetryableCodes] {
            codes = []
            for part in text.split(separator: ",") {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                guard let code = Int(trimmed), code > 0 else {
                    throw WorkerError(
                        .invalidConfiguration,
                        "\(Variable.nonRetryableCodes) must be comma-separated positive SDK codes")
                }
                codes.insert(SDKErrorCode(rawValue: code))
            }
        }
        return RetryPolicy(
            initialInterval: initial, backoffCoefficient: coefficient, maximumInterval: maximum,
            maximumAttempts: attempts.map { Int($0) } ?? standard.maximumAttempts,
            jitterFraction: jitter, nonRetryableCodes: codes, captureGrace: grace,
            abandonAfter: abandonAfter, linkLifetime: linkLifetime, maximumAge: maximumAge)
    }
}
