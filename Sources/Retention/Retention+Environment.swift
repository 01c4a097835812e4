import Foundation

extension Retention.Configuration {
    /// Environment variables that set a deployment's retention policy (each optional; an absent
    /// or empty one keeps the default stated on ``Retention/Configuration``).
    public enum Variable {
        /// `on` (default) or `off`: whether the workers apply the policy.
        public static let enabled = "JOURNEYS_RETENTION"
        /// Days after a subject's last journey ended before it is erased (default 365).
        public static let eraseAfterDays = "JOURNEYS_RETENTION_ERASE_AFTER_DAYS"
        /// Hours an idempotency key's stored answer is kept (default 24).
        public static let idempotencyHours = "JOURNEYS_RETENTION_IDEMPOTENCY_HOURS"
        /// Days after a journey ended before its sealed tokens and links leave the read model (default 7).
        public static let tokenDays = "JOURNEYS_RETENTION_TOKEN_DAYS"
        /// Days after an idempotency key was answered or released before its row is deleted (default 30).
        public static let idempotencyKeyDays = "JOURNEYS_RETENTION_IDEMPOTENCY_KEY_DAYS"
        /// Days after a webhook delivery ended (delivered or given up) before its row is deleted (default 30).
        public static let webhookDeliveryDays = "JOURNEYS_RETENTION_WEBHOOK_DELIVERY_DAYS"
        /// Seconds between the workers' runs (default 3600).
        public static let interval = "JOURNEYS_RETENTION_INTERVAL"
    }

    /// The policy `variables` describe; throws `invalid_configuration` naming the first bad variable.
    public static func fromEnvironment(_ variables: [String: String]) throws -> Retention.Configuration {
        func whole(_ name: String, _ range: ClosedRange<Int>, _ unit: String) throws -> Int? {
            guard let text = variables[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw RetentionError(
                    .invalidConfiguration,
                    "\(name) must be a whole number of \(unit) in \(range.lowerBound)...\(range.upperBound)",
                    field: name)
            }
            return value
        }
        var configuration = Retention.Configuration()
        if let text = variables[Variable.enabled]?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty {
            switch text {
            case "on", "true", "1", "yes": configuration.enabled = true
            case "off", "false", "0", "no": configuration.enabled = false
            default:
                throw RetentionError(.invalidConfiguration, "\(Variable.enabled) must be on or off", field: Variable.enabled)
            }
        }
        configuration.eraseAfterDays = try whole(Variable.eraseAfterDays, dayRange, "days") ?? configuration.eraseAfterDays
        configuration.idempotencyAnswerHours =
            try whole(Variable.idempotencyHours, hourRange, "hours")
            ?? configuration.idempotencyAnswerHours
        configuration.tokenDays = try whole(Variable.tokenDays, dayRange, "days") ?? configuration.tokenDays
        configuration.idempotencyKeyDays =
            try whole(Variable.idempotencyKeyDays, dayRange, "days") ?? configuration.idempotencyKeyDays
        configuration.webhookDeliveryDays =
            try whole(Variable.webhookDeliveryDays, dayRange, "days")
            ?? configuration.webhookDeliveryDays
        if let seconds = try whole(Variable.interval, intervalRange, "seconds") {
            configuration.interval = .seconds(seconds)
        }
        return configuration
    }
}
