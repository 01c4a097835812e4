extension FaultScript {
    /// The emulator's routes as fault scripts name them.
    public enum Route: String, Sendable, Hashable, Codable, CaseIterable {
        /// `POST /oauth2/token`
        case token
        /// `POST /processes`
        case createProcess
        /// `GET /processes/{id}`
        case getProcess
        /// `POST /sdk/captures`
        case prepareCapture
        /// `POST /sdk/captures/{id}/finish`
        case finishCapture
    }

    /// Faults for one route; rates are probabilities in 0...1.
    public struct RouteFaults: Codable, Sendable, Equatable {
        /// Overrides the script-wide latency for this route.
        public var latencyMs: MillisecondRange?
        /// Chance of answering 500 without handling the request.
        public var serverErrorRate: Double
        /// Chance of answering 429 without handling the request.
        public var rateLimitRate: Double
        /// Chance of handling the request and then answering 502 anyway (the response is lost).
        public var lostResponseRate: Double
        /// `Retry-After` sent with injected 429s; default 1.
        public var retryAfterSeconds: Int

        public init(
            latencyMs: MillisecondRange? = nil, serverErrorRate: Double = 0, rateLimitRate: Double = 0,
            lostResponseRate: Double = 0, retryAfterSeconds: Int = 1
        ) {
            self.latencyMs = latencyMs
            self.serverErrorRate = serverErrorRate
            self.rateLimitRate = rateLimitRate
            self.lostResponseRate = lostResponseRate
            self.retryAfterSeconds = retryAfterSeconds
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            latencyMs = try container.decodeIfPresent(MillisecondRange.self, forKey: .latencyMs)
            serverErrorRate = try container.decodeIfPresent(Double.self, forKey: .serverErrorRate) ?? 0
            rateLimitRate = try container.decodeIfPresent(Double.self, forKey: .rateLimitRate) ?? 0
            lostResponseRate = try container.decodeIfPresent(Double.self, forKey: .lostResponseRate) ?? 0
            retryAfterSeconds = try container.decodeIfPresent(Int.self, forKey: .retryAfterSeconds) ?? 1
        }
    }

    /// Faults in webhook delivery; rates are probabilities in 0...1, drawn once per notification.
    public struct WebhookFaults: Codable, Sendable, Equatable {
        /// Chance that a notification is never sent (breaks at-least-once on purpose).
        public var dropRate: Double
        /// Chance that a notification is delivered twice.
        public var duplicateRate: Double
        /// Delay before the first attempt.
        public var delayMs: MillisecondRange?
        /// Chance that a notification is held back `reorderHoldMs` so later ones overtake it.
        public var reorderRate: Double
        /// How long a reordered notification is held; default 500 ms.
        public var reorderHoldMs: Int

        public init(
            dropRate: Double = 0, duplicateRate: Double = 0, delayMs: MillisecondRange? = nil,
            reorderRate: Double = 0, reorderHoldMs: Int = 500
        ) {
            self.dropRate = dropRate
            self.duplicateRate = duplicateRate
            self.delayMs = delayMs
            self.reorderRate = reorderRate
            self.reorderHoldMs = reorderHoldMs
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            dropRate = try container.decodeIfPresent(Double.self, forKey: .dropRate) ?? 0
            duplicateRate = try container.decodeIfPresent(Double.self, forKey: .duplicateRate) ?? 0
            delayMs = try container.decodeIfPresent(MillisecondRange.self, forKey: .delayMs)
            reorderRate = try container.decodeIfPresent(Double.self, forKey: .reorderRate) ?? 0
            reorderHoldMs = try container.decodeIfPresent(Int.self, forKey: .reorderHoldMs) ?? 500
        }
    }

    /// A fixed delay (`100`) or a uniform range (`{"min": 10, "max": 50}`) in milliseconds.
    public struct MillisecondRange: Codable, Sendable, Equatable {
        public var min: Int
        public var max: Int

        public init(min: Int, max: Int) {
            self.min = min
            self.max = max
        }

        /// A fixed delay.
        public init(_ fixed: Int) {
            self.init(min: fixed, max: fixed)
        }

        public init(from decoder: any Decoder) throws {
            if let fixed = try? decoder.singleValueContainer().decode(Int.self) {
                self.init(fixed)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(min: try container.decode(Int.self, forKey: .min), max: try container.decode(Int.self, forKey: .max))
        }

        func validate(_ name: String) throws(EmulatorError) {
            guard min >= 0, max >= min else {
                throw EmulatorError(.invalidFaultScript, "\(name) needs 0 <= min <= max")
            }
        }

        /// A value in the range drawn from `random`.
        func pick(_ random: inout SplitMix64) -> Int {
            min == max ? min : min + Int(random.next() % UInt64(max - min + 1))
        }
    }
}
