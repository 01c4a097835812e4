import Foundation

extension WebhookDispatcher {
    /// How the dispatcher claims, sends and retries.
    public struct Configuration: Sendable {
        /// Deliveries claimed per round; 32 by default.
        public var batchSize: Int
        /// Request timeout per attempt; 15 s by default.
        public var requestTimeout: TimeInterval
        /// How long a claim is held; must exceed the request timeout; 60 s by default.
        public var leaseDuration: TimeInterval
        /// Wait between rounds when nothing was due; 1 s by default.
        public var pollInterval: Duration
        /// The retry schedule; ``WebhookRetrySchedule/init(intervals:minimumDelay:minimumRetryWindow:)`` defaults.
        public var retrySchedule: WebhookRetrySchedule
        /// The longest `Retry-After` honoured; 24 h by default.
        public var maxRetryAfter: TimeInterval
        /// Most bytes of a receiver's answer body read (and dropped) before the connection is
        /// cut; the status and headers count either way. 64 KiB by default.
        public var maxResponseBytes: Int
        /// Where deliveries may go, checked after resolving the host before each attempt; by
        /// default every loopback, private, link-local, metadata and unspecified address is refused.
        public var destinations: WebhookDestinationPolicy
        /// How long an endpoint may fail without a single 2xx before it is disabled
        /// automatically (its reason says since when; ``autoDisableVariable``); nil never
        /// disables. 3 days by default, the retry schedule's span: a message then has had every
        /// retry.
        public var autoDisableAfter: TimeInterval?
        /// Turns endpoint host names into addresses, once per attempt; the system resolver by default.
        public var resolver: HostResolver = .system

        /// The environment variable holding ``autoDisableAfter`` in seconds (`0`: never).
        public static let autoDisableVariable = "JOURNEYS_WEBHOOK_AUTO_DISABLE_AFTER"
        /// ``autoDisableAfter``'s default: 3 days.
        public static let defaultAutoDisableAfter: TimeInterval = 3 * 86400

        /// Reads ``autoDisableAfter`` from `text` (whole seconds; `0` never disables; nil or
        /// blank: the default); `invalid_configuration` naming the variable otherwise.
        public static func autoDisableAfter(_ text: String?) throws(WebhookError) -> TimeInterval? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return defaultAutoDisableAfter }
            guard let seconds = Int(text), seconds >= 0 else {
                throw WebhookError(.invalidConfiguration, "\(autoDisableVariable) must be whole seconds (0: never), e.g. 259200 for 3 days")
            }
            return seconds == 0 ? nil : TimeInterval(seconds)
        }

        public init(batchSize: Int = 32, requestTimeout: TimeInterval = 15, leaseDuration: TimeInterval = 60,
                    pollInterval: Duration = .seconds(1), retrySchedule: WebhookRetrySchedule = WebhookRetrySchedule(),
                    maxRetryAfter: TimeInterval = 86400, destinations: WebhookDestinationPolicy = WebhookDestinationPolicy(),
                    maxResponseBytes: Int = 64 << 10, autoDisableAfter: TimeInterval? = Configuration.defaultAutoDisableAfter) {
            self.autoDisableAfter = autoDisableAfter
            self.destinations = destinations
            self.maxResponseBytes = maxResponseBytes
            self.batchSize = batchSize
            self.requestTimeout = requestTimeout
            self.leaseDuration = leaseDuration
            self.pollInterval = pollInterval
            self.retrySchedule = retrySchedule
            self.maxRetryAfter = maxRetryAfter
        }
    }
}
