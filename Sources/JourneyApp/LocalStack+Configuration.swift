import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import Observability
import Postgres
import UnicoEmulator

extension LocalStack {
    /// How the stack is put together; the defaults are what `demo` and `bench e2e` run.
    public struct Configuration: Sendable {
        /// The emulated service accounts (one per environment) with their keys; nil generates one
        /// for UAT and one for PROD, each its own tenant (as at Unico). Default nil.
        public var accounts: [DevelopmentServiceAccount]?
        /// The emulator's clock. Default: a manual clock at the current time (the demo moves it).
        public var clock: any EmulatorClock
        /// The service's clock. Default: the emulator's, so moving it expires tokens on both sides.
        public var serviceClock: @Sendable () -> Date
        /// The Unico clients' clock (assertions, token caching). Default: the system clock.
        public var clientClock: @Sendable () -> Date = Date.init
        /// Faults the emulator injects. Default none.
        public var faults: FaultScript = .none
        /// Seed of the emulator's fault decisions. Default 7.
        public var seed: UInt64 = 7
        /// The emulator's requests per second per tenant; 0 turns its limit off. Default 0.
        public var emulatorRateLimit: Int = 0
        /// Where the emulator sends its webhooks; nil sends none. Default nil.
        public var emulatorWebhook: UnicoEmulator.WebhookConfiguration?
        /// Where the emulator puts process fields in its answers. Default wrapped (documented).
        public var responseShape: UnicoEmulator.ResponseShape = .wrapped
        /// Whether the Unico clients may search by client reference. Default search: the emulator
        /// serves it (real Unico environments default to none, ``HumanTokenAPIConfiguration/lookup``).
        public var lookup: ProcessLookup = .search
        /// The Unico clients' own limiter, in requests per second. Default 100,000 (the emulator's limit is off).
        public var clientRateLimit: Double = 100_000
        /// The Unico clients' request timeout, in seconds. Default 10.
        public var clientRequestTimeout: TimeInterval = 10
        /// The policy frozen into new journeys. Default ``RetryPolicy/standard``.
        public var retryPolicy: RetryPolicy = .standard
        /// The service's request rate limits. Default ``RequestRateLimits/init()`` (`serve`'s defaults).
        public var rateLimits = RequestRateLimits()
        /// How the service authenticates Unico's webhooks. Default: read from `UNICO_WEBHOOK_AUTH`
        /// (``AppEnvironment/variables``).
        public var webhookAuthentication: WebhookAuthenticator? = WebhookAuthenticator.configured(
            AppEnvironment.current.variables)
        /// Where reports, the dashboard and the journey listing read (a hot standby); nil: the
        /// application pool. Default nil.
        public var reports: PostgresClient?
        /// Replay lag (seconds) beyond which reports on `reports` answer 503 (nil: never).
        public var reportsMaxLag: Double? = 300
        /// The service's loopback port: 0 picks a free one; nil does not listen (callers use
        /// `service.router` in-process). Default 0.
        public var port: Int? = 0
        /// How long `/metrics` reuses gauges read from the database. Default 5 s (as `serve`).
        public var metricsGaugeLifetime: Duration = .seconds(5)
        /// Where each journey start's stage times go (`bench e2e`); nil times nothing. Default nil.
        public var startStages: (@Sendable ([StageTimer.Stage]) -> Void)?

        /// The defaults, on `clock` (default: a manual clock at the current time).
        public init(clock: any EmulatorClock = ManualEmulatorClock(Date())) {
            self.clock = clock
            self.serviceClock = { clock.now() }
        }
    }
}

extension LocalStack.Configuration {
    /// The application's configuration for the emulator's Unico `settings`: development keys,
    /// Unico clients limited in this process only (the emulator's limit is its own), no access log.
    func appConfiguration(unico settings: [Environment: HumanTokenAPIConfiguration]) throws -> AppConfiguration {
        var app = AppConfiguration()
        app.unico = settings
        app.sharedUnicoRate = false
        app.unicoClock = clientClock
        app.privacy = .development()
        app.clientTokens = try .development()
        app.sessionTokens = try .developmentSessions()
        app.retryPolicy = retryPolicy
        app.clock = serviceClock
        app.webhookAuthentication = webhookAuthentication
        app.startStages = startStages
        app.server.http.port = port ?? 0
        app.server.accessLog = AccessLogEntry.discard
        app.server.metricsGaugeLifetime = metricsGaugeLifetime
        app.server.reportsMaxLag = reportsMaxLag
        app.server.rateLimits = rateLimits
        return app
    }
}
