import Foundation
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import Observability
import UnicoEmulator

extension TestStack {
    /// What a test changes about the stack; the defaults suit most tests.
    public struct Options: Sendable {
        /// Where the stack reads the time.
        public enum Time: Sendable {
            /// One ``TestClock`` for the emulator, the service and the Unico client.
            case manual
            /// The ``TestClock`` at Unico only; the service and client on the system clock.
            case emulatorOnly
            /// The system clock everywhere (for child processes and real-time tests).
            case system
        }

        /// Default ``Time/manual``.
        public var time: Time = .manual
        /// Where the ``TestClock`` starts. Default 2026-05-28T20:26:40Z.
        public var clockStart = Date(timeIntervalSince1970: 1_780_000_000)
        /// Faults the emulator injects. Default none.
        public var faults: FaultScript = .none
        /// The policy frozen into new journeys. Default ``RetryPolicy/standard``.
        public var retryPolicy: RetryPolicy = .standard
        /// The Unico client's request timeout, in seconds. Default 5.
        public var requestTimeout: TimeInterval = 5
        /// The Unico client's own limiter. Default 1000 per second.
        public var clientRateLimit: Double = 1000
        /// The emulator's limit per tenant. Default 10,000 per second.
        public var emulatorRateLimit = 10_000
        /// How the service authenticates Unico's webhooks; nil refuses them. Default nil.
        public var webhookAuthentication: WebhookAuthenticator?
        /// The service's request rate limits. Default off: suites such as the concurrent
        /// client-token bursts send hundreds of requests for one journey at once, which the
        /// production limits exist to refuse; the limits have tests of their own.
        public var rateLimits = RequestRateLimits.off
        /// When set, the emulator sends its webhooks to the service with these credentials (the
        /// service then listens on loopback). Default nil.
        public var emulatorWebhooks: UnicoEmulator.WebhookAuthentication?
        /// Where the emulator puts process fields. Default wrapped (documented).
        public var responseShape: UnicoEmulator.ResponseShape = .wrapped
        /// Whether the Unico client may search by client reference. Default search: the emulator
        /// serves it (real Unico environments default to none).
        public var lookup: ProcessLookup = .search
        /// Whether the service listens on a loopback port (for real-socket callers). Default false.
        public var listen = false
        /// The application pool's size. Default 8.
        public var poolSize = 8
        /// Whether no other test database may be alive meanwhile (``TestPermits/alone(_:)``), for a
        /// test whose timing a busy parallel run upsets. Default false.
        public var alone = false
        /// Where each journey start's stage times go (`JourneyDependencies.startStages`). Default nil.
        public var startStages: (@Sendable ([StageTimer.Stage]) -> Void)?
        /// Whether the database lives on a cluster no other test uses, so the test may stop and
        /// start it (``TestDatabase/create(migrated:poolSize:restartable:)``). Default false.
        public var restartable = false

        public init(
            time: Time = .manual, faults: FaultScript = .none, retryPolicy: RetryPolicy = .standard,
            requestTimeout: TimeInterval = 5, listen: Bool = false
        ) {
            self.time = time
            self.faults = faults
            self.retryPolicy = retryPolicy
            self.requestTimeout = requestTimeout
            self.listen = listen
        }
    }
}
