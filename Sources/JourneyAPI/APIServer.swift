import AccessControl
import EventStore
import Foundation
import HTTPServer
import JourneyEngine
import Migrations
import Observability
import Postgres
import RateBudget

/// The HTTP API for apps and backends (`journeys serve`): health, readiness, metrics, the
/// OpenAPI document and the `/v1/journeys` routes.
public final class APIServer: Sendable {
    public struct Configuration: Sendable {
        /// The HTTP listener. Default 127.0.0.1:8080.
        public var http = HTTPServer.Configuration(port: 8080)
        /// Where access log entries go. Default: one JSON line each on standard error.
        public var accessLog: @Sendable (AccessLogEntry) -> Void = AccessLogEntry.standardError
        /// The key variables that fell back to the public development keys; `/readyz` reports
        /// them (`developmentKeys: true` and a warning). Default none.
        public var developmentKeys: [String] = []
        /// The bearer token `/metrics` requires (`serve` reads `JOURNEYS_METRICS_TOKEN`); nil or
        /// empty leaves `/metrics` open. Default nil.
        public var metricsToken: String?
        /// How long gauges read from the database are reused between scrapes, by the dependencies'
        /// clock. Default 5 s.
        public var metricsGaugeLifetime: Duration = .seconds(5)
        /// Gauges read from tables this module does not own (outbound webhook backlog, work
        /// failures), next to its own (journeys per state, SLA, overdue work, follower lag). Default none.
        public var metricsGauges: [MetricsGaugeReader] = []
        /// The environment variable `serve` reads `metricsToken` from.
        public static let metricsTokenVariable = "JOURNEYS_METRICS_TOKEN"
        /// Seconds of replay lag beyond which reports read on a standby answer 503
        /// `reports_lagging` (nil: never). Default 300.
        public var reportsMaxLag: Double? = 300
        /// The environment variable `serve` reads `reportsMaxLag` from (`0`: no bound).
        public static let reportsMaxLagVariable = "REPORTS_MAX_LAG"
        /// Request rate limits per API key, tenant, journey (client tokens) and webhook-token client,
        /// shared by every `serve` through the database (`serve` reads `JOURNEYS_RATE_LIMIT_*`).
        /// Default ``RequestRateLimits/init()``.
        public var rateLimits = RequestRateLimits()
        public init() {}
    }

    public let configuration: Configuration
    public let database: PostgresClient
    /// Where reports, the dashboard and the journey listing read: a hot standby
    /// (`REPORTS_DATABASE_URL`) or `database` itself.
    public let reports: PostgresClient
    public let metrics: MetricsRegistry
    /// The use cases every route group runs (the process's one `Journeys`, from `JourneyApp`).
    public let journeys: Journeys
    /// The API keys every route group verifies against: one verified-key cache per process.
    public let keys: APIKeyStore
    /// The method and path template of every registered route (the OpenAPI check uses it).
    public let routes: [Route]
    /// Every route behind the middleware, as the server runs it; tests call it without a socket.
    public let router: Router
    let server: HTTPServer

    /// The API over `journeys` (its database is the application pool) and `keys`, both shared
    /// with the rest of the process; `dependencies.engine` is `journeys`' own.
    public init(
        configuration: Configuration, journeys: Journeys, keys: APIKeyStore, reports: PostgresClient? = nil,
        dependencies: JourneyDependencies, metrics: MetricsRegistry = MetricsRegistry()
    ) {
        let database = journeys.database
        self.configuration = configuration
        self.database = database
        self.journeys = journeys
        self.keys = keys
        self.reports = reports ?? database
        self.metrics = metrics
        let reading = ReportsDatabase(
            client: reports ?? database, isReplica: reports.map { $0 !== database } ?? false,
            maxLag: configuration.reportsMaxLag)
        let router = Self.router(
            journeys: journeys, keys: keys, reports: reading, dependencies: dependencies, metrics: metrics,
            configuration: configuration)
        self.routes = router.routes
        self.router = router
        self.server = HTTPServer(
            configuration: configuration.http, router: router, accessLog: configuration.accessLog,
            makeRequestID: { UUID.random().uuidString.lowercased() })
    }

    /// Serves until the surrounding task is cancelled, then shuts down gracefully.
    public func run() async throws {
        try await server.run()
    }

    /// Starts listening and returns (tests and `serve` use `run()` instead).
    public func start() throws { try server.start() }
    public func shutdown() async { await server.shutdown() }
    /// The bound port once started.
    public var port: Int? { server.port }

    /// Every route of the service, with its metrics middleware.
    static func router(
        journeys: Journeys, keys: APIKeyStore, reports: ReportsDatabase, dependencies: JourneyDependencies,
        metrics: MetricsRegistry, configuration: Configuration
    ) -> Router {
        let database = journeys.database
        let authenticator = RequestAuthenticator(
            keys: keys, clientTokens: dependencies.clientTokens, clock: dependencies.clock)
        var router = Router()
        router.use(RequestMetrics(registry: metrics).middleware)
        router.use(Problem.engineErrors)
        let limiter = RequestRateLimiter(
            limits: configuration.rateLimits, buckets: PostgresRequestLimits(client: database),
            metrics: metrics)
        router.use(limiter.middleware)
        let gauges = MetricsGauges(
            readers: HealthRoutes.readers(database: database, reports: reports) + configuration.metricsGauges,
            registry: metrics, clock: dependencies.clock, lifetime: configuration.metricsGaugeLifetime)
        HealthRoutes(
            database: database, reports: reports, metrics: metrics, gauges: gauges,
            access: MetricsAccess(token: configuration.metricsToken),
            developmentKeys: configuration.developmentKeys
        ).register(on: &router)
        JourneyRoutes(
            journeys: journeys, authenticator: authenticator, reports: reports, dependencies: dependencies, metrics: metrics
        ).register(on: &router)
        WebhookTokenEndpoint(
            credentials: dependencies.webhookCredentials, clock: dependencies.clock,
            metrics: metrics, logger: dependencies.logger
        ).register(on: &router)
        ReportRoutes(
            journeys: journeys, keys: keys, authenticator: authenticator, reports: reports, dependencies: dependencies
        ).register(on: &router)
        SubjectRoutes(journeys: journeys, authenticator: authenticator, dependencies: dependencies).register(on: &router)
        WebhookEndpointRoutes(database: database, authenticator: authenticator, dependencies: dependencies).register(on: &router)
        router.get("/openapi.json") { _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: OpenAPIDocument.json)
        }
        return router
    }
}
