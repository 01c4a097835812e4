import Synchronization

/// Turns a `FaultScript` and a seed into concrete, reproducible fault decisions.
///
/// Each route and the webhook have their own decision stream: the n-th decision of a stream
/// depends only on the seed, the stream and n, so concurrent traffic on other routes does not
/// change what a route sees. Rates of zero never fire, rates of one always do.
public final class FaultPlan: Sendable {
    /// What to do to one request.
    public struct RequestFault: Sendable, Equatable {
        public enum Action: Sendable, Equatable {
            case none
            /// Answer 500 without handling.
            case serverError
            /// Answer 429 with `Retry-After` seconds without handling.
            case rateLimited(retryAfterSeconds: Int)
            /// Handle, then answer 502 instead of the real response.
            case loseResponse
        }

        /// Delay before handling.
        public var latencyMilliseconds: Int
        public var action: Action

        public init(latencyMilliseconds: Int, action: Action) {
            self.latencyMilliseconds = latencyMilliseconds
            self.action = action
        }
    }

    /// What to do to one webhook notification.
    public struct WebhookFault: Sendable, Equatable {
        public var drop: Bool
        public var duplicate: Bool
        /// Delay before the first attempt, including any reorder hold.
        public var delayMilliseconds: Int
        public var reordered: Bool
    }

    /// The script in effect.
    public var script: FaultScript { current.withLock { $0 } }
    /// Routes a test holds open (``RouteHolds``); none unless a test holds one.
    public let holds = RouteHolds()
    public let seed: UInt64
    private let current: Mutex<FaultScript>
    private let counters = Mutex<[String: UInt64]>([:])

    public init(script: FaultScript, seed: UInt64) {
        self.current = Mutex(script)
        self.seed = seed
    }

    /// Puts `script` in effect from the next decision on (a fault that starts or ends mid-run);
    /// the decision streams go on where they were.
    public func replace(_ script: FaultScript) {
        current.withLock { $0 = script }
    }

    /// The next decision for a request on `route`.
    public func requestFault(for route: FaultScript.Route) -> RequestFault {
        var random = generator(for: "route." + route.rawValue)
        let script = script
        let faults = script.faults(for: route)
        let latency = (faults.latencyMs ?? script.latencyMs)?.pick(&random) ?? 0
        let roll = random.nextUnit()
        let action: RequestFault.Action
        if roll < faults.serverErrorRate {
            action = .serverError
        } else if roll < faults.serverErrorRate + faults.rateLimitRate {
            action = .rateLimited(retryAfterSeconds: faults.retryAfterSeconds)
        } else if random.nextUnit() < faults.lostResponseRate {
            action = .loseResponse
        } else {
            action = .none
        }
        return RequestFault(latencyMilliseconds: latency, action: action)
    }

    /// The next decision for a webhook notification.
    public func webhookFault() -> WebhookFault {
        var random = generator(for: "webhook")
        let faults = script.webhook
        let drop = random.nextUnit() < faults.dropRate
        let duplicate = random.nextUnit() < faults.duplicateRate
        let reordered = random.nextUnit() < faults.reorderRate
        let delay = faults.delayMs?.pick(&random) ?? 0
        return WebhookFault(
            drop: drop, duplicate: duplicate,
            delayMilliseconds: delay + (reordered ? faults.reorderHoldMs : 0), reordered: reordered)
    }

    /// Whether the SDK-facing prepare must answer 73303 in `environment`.
    public func tokenEntryDisabled(in environment: UnicoEmulator.Environment) -> Bool {
        script.tokenEntryDisabled.contains(environment)
    }

    private func generator(for stream: String) -> SplitMix64 {
        let index = counters.withLock { counters in
            defer { counters[stream, default: 0] += 1 }
            return counters[stream, default: 0]
        }
        return SplitMix64(seed: SplitMix64.mix(seed ^ SplitMix64.fnv1a(stream)) ^ SplitMix64.mix(index))
    }
}
