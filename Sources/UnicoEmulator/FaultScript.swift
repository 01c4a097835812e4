import Foundation

/// What the emulator should get wrong on purpose, loadable from a JSON file.
///
/// Every member is optional in JSON; absent means no fault. Example:
/// ```json
/// {
///   "latencyMs": {"min": 5, "max": 40},
///   "routes": {"createProcess": {"serverErrorRate": 0.2, "rateLimitRate": 0.1, "lostResponseRate": 0.05}},
///   "tokenEntryDisabled": ["PROD"],
///   "webhook": {"dropRate": 0.1, "duplicateRate": 0.3, "delayMs": 200, "reorderRate": 0.2},
///   "clockOffsetSeconds": 301
/// }
/// ```
/// Random decisions come from the emulator's seed, so one script and seed replay the same faults.
public struct FaultScript: Codable, Sendable, Equatable {
    /// Latency added before every request is handled, unless a route overrides it.
    public var latencyMs: MillisecondRange?
    /// Faults per route, keyed by a `Route` raw value or `*` for every route.
    public var routes: [String: RouteFaults]
    /// Environments in which the SDK-facing prepare answers 73303 (token entry not enabled).
    public var tokenEntryDisabled: Set<UnicoEmulator.Environment>
    /// Faults in webhook delivery.
    public var webhook: WebhookFaults
    /// Seconds added to the injected clock for every expiry the emulator checks or stamps.
    public var clockOffsetSeconds: Double

    public init(
        latencyMs: MillisecondRange? = nil,
        routes: [String: RouteFaults] = [:],
        tokenEntryDisabled: Set<UnicoEmulator.Environment> = [],
        webhook: WebhookFaults = WebhookFaults(),
        clockOffsetSeconds: Double = 0
    ) {
        self.latencyMs = latencyMs
        self.routes = routes
        self.tokenEntryDisabled = tokenEntryDisabled
        self.webhook = webhook
        self.clockOffsetSeconds = clockOffsetSeconds
    }

    /// No faults at all.
    public static let none = FaultScript()

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latencyMs = try container.decodeIfPresent(MillisecondRange.self, forKey: .latencyMs)
        routes = try container.decodeIfPresent([String: RouteFaults].self, forKey: .routes) ?? [:]
        tokenEntryDisabled = try container.decodeIfPresent(Set<UnicoEmulator.Environment>.self, forKey: .tokenEntryDisabled) ?? []
        webhook = try container.decodeIfPresent(WebhookFaults.self, forKey: .webhook) ?? WebhookFaults()
        clockOffsetSeconds = try container.decodeIfPresent(Double.self, forKey: .clockOffsetSeconds) ?? 0
    }

    /// Reads and validates a script from a JSON file.
    public static func load(contentsOf url: URL) throws(EmulatorError) -> FaultScript {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw EmulatorError(.invalidFaultScript, "fault script file could not be read")
        }
        return try decode(data)
    }

    /// Decodes and validates a script from JSON.
    public static func decode(_ data: Data) throws(EmulatorError) -> FaultScript {
        let script: FaultScript
        do {
            script = try JSONDecoder().decode(FaultScript.self, from: data)
        } catch {
            throw EmulatorError(.invalidFaultScript, "fault script is not valid JSON for FaultScript: \(error)")
        }
        try script.validate()
        return script
    }

    /// Throws `invalid_fault_script` for unknown routes, rates outside 0...1 or inverted ranges.
    public func validate() throws(EmulatorError) {
        func check(_ condition: Bool, _ message: String) throws(EmulatorError) {
            if !condition { throw EmulatorError(.invalidFaultScript, message) }
        }
        func rate(_ value: Double, _ name: String) throws(EmulatorError) {
            try check((0...1).contains(value), "\(name) must be within 0...1")
        }
        try check(clockOffsetSeconds.isFinite, "clockOffsetSeconds must be finite")
        try latencyMs?.validate("latencyMs")
        for (key, faults) in routes {
            try check(
                key == "*" || Route(rawValue: key) != nil,
                "unknown route \(key.debugDescription); use * or one of \(Route.allCases.map(\.rawValue))")
            try rate(faults.serverErrorRate, "routes.\(key).serverErrorRate")
            try rate(faults.rateLimitRate, "routes.\(key).rateLimitRate")
            try rate(faults.lostResponseRate, "routes.\(key).lostResponseRate")
            try check(faults.retryAfterSeconds >= 0, "routes.\(key).retryAfterSeconds must not be negative")
            try faults.latencyMs?.validate("routes.\(key).latencyMs")
        }
        try rate(webhook.dropRate, "webhook.dropRate")
        try rate(webhook.duplicateRate, "webhook.duplicateRate")
        try rate(webhook.reorderRate, "webhook.reorderRate")
        try check(webhook.reorderHoldMs >= 0, "webhook.reorderHoldMs must not be negative")
        try webhook.delayMs?.validate("webhook.delayMs")
    }

    /// The faults for `route`: its own entry, else the `*` entry, else none.
    func faults(for route: Route) -> RouteFaults {
        routes[route.rawValue] ?? routes["*"] ?? RouteFaults()
    }
}
