import Foundation
import OutboundHTTP

extension WebhookDispatcher {
    /// How the dispatcher claims, sends and retries.
    public struct Configuration: Sendable {
        /// Deliveries claimed per round; 32 by default.
        public var batchSize: Int
        /// The whole attempt (connecting, TLS, sending, the answer up to ``maxResponseBytes``); 15 s by default.
        public var requestTimeout: TimeInterval
        /// Each connection attempt, within ``requestTimeout`` (the host's next checked address is
        /// tried after it); 5 s by default.
        public var connectTimeout: TimeInterval
        /// How long a claim is held; must exceed the request timeout; 60 s by default.
        public var leaseDuration: TimeInterval
        /// Wait between rounds when nothing was due; 1 s by default.
        public var pollInterval: Duration
        /// The retry schedule; ``WebhookRetrySchedule/init(intervals:minimumDelay:minimumRetryWindow:)`` defaults.
        public var retrySchedule: WebhookRetrySchedule
        /// The longest `Retry-After` honoured; 24 h by default.
        public var maxRetryAfter: TimeInterval
        /// Most bytes of a receiver's answer body read (and dropped) before the connection is
        /// closed (an announced longer body is not read at all); the status and headers count
        /// either way. 64 KiB by default.
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
        public var resolver: HostResolver
        /// Certificates trusted for `https` endpoints besides the system's store (a private CA,
        /// ``caFileVariable``); none by default.
        public var trustedCertificates: CertificateBundle?

        /// The environment variable naming a PEM file of CA certificates trusted besides the system's.
        public static let caFileVariable = "JOURNEYS_WEBHOOK_CA_FILE"

        /// Reads the CA file `path` names (nil or blank: none); `invalid_configuration` naming the
        /// variable when it cannot be read or holds no PEM certificate.
        public static func trustedCertificates(_ path: String?) throws(WebhookError) -> CertificateBundle? {
            guard let path = path?.trimmingCharacters(in: .whitespaces), !path.isEmpty else { return nil }
            do {
                return try CertificateBundle(contentsOfFile: path)
            } catch {
                throw WebhookError(.invalidConfiguration, "\(caFileVariable): \(error.message)")
            }
        }

        /// The environment variable holding ``autoDisableAfter`` in seconds (`0`: never).
        public static let autoDisableVariable = "JOURNEYS_WEBHOOK_AUTO_DISABLE_AFTER"
        /// ``autoDisableAfter``'s default: 3 days.
        public static let defaultAutoDisableAfter: TimeInterval = 3 * 86400

        /// Reads ``autoDisableAfter`` from `text` (whole seconds; `0` never disables; nil or
        /// blank: the default); `invalid_configuration` naming the variable otherwise.
        public static func autoDisableAfter(_ text: String?) throws(WebhookError) -> TimeInterval? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return defaultAutoDisableAfter }
            guard let seconds = Int(text), seconds >= 0 else {
                throw WebhookError(
                    .invalidConfiguration, "\(autoDisableVariable) must be whole seconds (0: never), e.g. 259200 for 3 days")
            }
            return seconds == 0 ? nil : TimeInterval(seconds)
        }

        public init(
            batchSize: Int = 32, requestTimeout: TimeInterval = 15, leaseDuration: TimeInterval = 60,
            pollInterval: Duration = .seconds(1), retrySchedule: WebhookRetrySchedule = WebhookRetrySchedule(),
            maxRetryAfter: TimeInterval = 86400, destinations: WebhookDestinationPolicy = WebhookDestinationPolicy(),
            maxResponseBytes: Int = 64 << 10, autoDisableAfter: TimeInterval? = Configuration.defaultAutoDisableAfter,
            connectTimeout: TimeInterval = 5, resolver: HostResolver = .system,
            trustedCertificates: CertificateBundle? = nil
        ) {
            self.autoDisableAfter = autoDisableAfter
            self.connectTimeout = connectTimeout
            self.resolver = resolver
            self.trustedCertificates = trustedCertificates
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
