import Foundation

/// The request rate limits of `serve`, each a token bucket shared by every `serve` process through
/// PostgreSQL: a sustained rate per second and a burst. nil turns a limit off.
///
/// Each variable holds `RATE:BURST` (e.g. `100:200`) or `off`.
public struct RequestRateLimits: Sendable, Equatable {
    public struct Limit: Sendable, Equatable {
        /// Requests per second, sustained.
        public var rate: Double
        /// Requests at once after a quiet spell (at least 1).
        public var burst: Double

        public init(rate: Double, burst: Double) {
            self.rate = rate
            self.burst = burst
        }
    }

    /// Requests per API key. Default 100/s, bursts of 200 (`JOURNEYS_RATE_LIMIT_API_KEY`).
    public var apiKey: Limit? = Limit(rate: 100, burst: 200)
    /// Requests per tenant, all its keys together. Default 200/s, bursts of 400 (`JOURNEYS_RATE_LIMIT_TENANT`).
    public var tenant: Limit? = Limit(rate: 200, burst: 400)
    /// Requests with a journey's client tokens (the app), per journey. Default 5/s, bursts of 20
    /// (`JOURNEYS_RATE_LIMIT_CLIENT_TOKEN`).
    public var clientToken: Limit? = Limit(rate: 5, burst: 20)
    /// Failed client authentications at `POST /v1/unico/oauth/token`, per client address (IPv6: per
    /// /64). Default 0.1/s (6 a minute), bursts of 10 (`JOURNEYS_RATE_LIMIT_WEBHOOK_TOKEN_FAILURES`).
    public var webhookTokenFailures: Limit? = Limit(rate: 0.1, burst: 10)

    public init() {}

    /// Every limit off (benchmarks of the service itself).
    public static let off: RequestRateLimits = {
        var limits = RequestRateLimits()
        limits.apiKey = nil
        limits.tenant = nil
        limits.clientToken = nil
        limits.webhookTokenFailures = nil
        return limits
    }()

    /// The variables ``fromEnvironment(_:)`` reads, by limit.
    public static let apiKeyVariable = "JOURNEYS_RATE_LIMIT_API_KEY"
    public static let tenantVariable = "JOURNEYS_RATE_LIMIT_TENANT"
    public static let clientTokenVariable = "JOURNEYS_RATE_LIMIT_CLIENT_TOKEN"
    public static let webhookTokenFailuresVariable = "JOURNEYS_RATE_LIMIT_WEBHOOK_TOKEN_FAILURES"

    /// The defaults, overridden by the variables that are set; throws a message naming a bad one.
    public static func fromEnvironment(_ variables: [String: String]) throws -> RequestRateLimits {
        var limits = RequestRateLimits()
        limits.apiKey = try parse(variables, apiKeyVariable, default: limits.apiKey)
        limits.tenant = try parse(variables, tenantVariable, default: limits.tenant)
        limits.clientToken = try parse(variables, clientTokenVariable, default: limits.clientToken)
        limits.webhookTokenFailures = try parse(variables, webhookTokenFailuresVariable, default: limits.webhookTokenFailures)
        return limits
    }

    /// Why a variable was refused.
    public struct InvalidSetting: Error, Sendable {
        public let message: String
    }

    private static func parse(_ variables: [String: String], _ name: String, default value: Limit?) throws -> Limit? {
        guard let text = variables[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return value }
        if text.lowercased() == "off" { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let rate = Double(parts[0]), let burst = Double(parts[1]),
            rate > 0, rate.isFinite, burst >= 1, burst.isFinite
        else {
            throw InvalidSetting(
                message: "\(name) must be RATE:BURST (requests per second above 0, a burst of at least 1, "
                    + "e.g. 100:200) or off, not \(text)")
        }
        return Limit(rate: rate, burst: burst)
    }
}
