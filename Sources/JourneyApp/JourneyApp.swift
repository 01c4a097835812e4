import AccessControl
import EventStore
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import JourneyEngine
import Observability
import OutboundWebhooks
import Postgres
import Privacy
import Retention
import DataSubjects
import Workers

/// The composition root: one process of the service, built from one ``AppConfiguration`` over an
/// opened ``Database``. It makes one ``EventStore`` (so group commit and the NOTIFY coalescer see
/// every append of the process), one `Journeys`, one `APIKeyStore` (one verified-key cache), the
/// API (``server``, its router) and the workers, and lists the long-running services
/// (``services(projector:projections:listener:)``). `serve`, `work`, `demo`, `journeys-bench e2e`
/// and the tests' `TestStack` all build it; the emulator stacks differ only in configuration.
public final class JourneyApp: Sendable {
    public let configuration: AppConfiguration
    public let database: Database
    /// The process's one event store.
    public let events: EventStore
    /// The process's one engine: the route groups, the workers, retention and the subject
    /// requests all run on it.
    public let journeys: Journeys
    /// The process's one API key store: every route group verifies keys against it.
    public let keys: APIKeyStore
    /// What the API runs with (`journeys`' dependencies among them).
    public let dependencies: JourneyDependencies
    /// The API over ``journeys`` and ``keys``; not listening until ``serve(projector:writeLine:)`` (or the caller) starts it.
    public let server: APIServer
    /// The workers of ``AppConfiguration/workers``; nil when it is nil.
    public let worker: WorkerService?
    /// The key variables that fell back to the public development keys (embedded database only).
    public let developmentKeys: DevelopmentKeys
    /// The deployment's Unico clients, by environment.
    public let unicoClients: [Environment: HumanTokenAPIClient]

    /// Builds the process; throws `invalid_input` naming a missing key or Unico setting (off the
    /// embedded database) or a worker setting the Unico clients' timeout contradicts.
    public init(_ configuration: AppConfiguration, database: Database) throws {
        self.configuration = configuration
        self.database = database
        let embedded = database.embedded != nil
        var unico: [Environment: HumanTokenAPIClient] = [:]
        for (environment, settings) in configuration.unico {
            unico[environment] = try Self.client(
                settings, configuration, database: database, tenantShare: configuration.tenantShare)
        }
        var tenantUnico: [String: [Environment: HumanTokenAPIClient]] = [:]
        for (tenant, settings) in configuration.tenantUnico {
            tenantUnico[tenant] = try settings.mapValues {
                try Self.client($0, configuration, database: database, tenantShare: 1)
            }
        }
        if unico.isEmpty, tenantUnico.isEmpty, !embedded {
            throw AppError(
                .invalidInput,
                "no Unico environment is configured: set \(HumanTokenAPIEnvironment.uat.variablePrefix)"
                    + "SERVICE_ACCOUNT, ...TENANT and ...PRIVATE_KEY_FILE (or the \(HumanTokenAPIEnvironment.prod.variablePrefix) ones), "
                    + "or give --unico-config FILE (\(UnicoSettings.fileVariable))")
        }
        func key<Key>(_ value: Key?, _ variable: String, development: () throws -> Key) throws -> Key {
            if let value { return value }
            guard embedded else { throw AppError(.invalidInput, "\(variable) is not set") }
            return try development()
        }
        let privacy = try key(configuration.privacy, PrivacyConfiguration.Variable.activeKey) { .development() }
        let clientTokens = try key(configuration.clientTokens, ClientTokenIssuer.environmentVariable) { try .development() }
        var dependencies = JourneyDependencies(
            vault: SubjectVault(client: database.app, configuration: privacy), clientTokens: clientTokens,
            unico: unico, retryPolicy: configuration.retryPolicy, clock: configuration.clock,
            webhookAuthentication: configuration.webhookAuthentication)
        dependencies.engine.tenantUnico = tenantUnico
        dependencies.tenantWebhookAuthentication = configuration.tenantWebhookAuthentication
        dependencies.webhookDestinations = configuration.webhookDestinations
        dependencies.erasureLedger = configuration.erasureLedger
        dependencies.startStages = configuration.startStages
        if configuration.servesAPI {
            dependencies.sessionTokens = try key(configuration.sessionTokens, ClientTokenIssuer.sessionKeyVariable) {
                try .developmentSessions()
            }
        } else if let sessions = configuration.sessionTokens {
            dependencies.sessionTokens = sessions
        }
        dependencies.secureSessionCookie = !DevelopmentKeys.isLoopback(configuration.server.http.host)
        self.dependencies = dependencies
        self.unicoClients = unico
        self.developmentKeys = DevelopmentKeys.of(configuration, database: database)

        events = Self.eventStore(on: database.app)
        journeys = Journeys(events: events, dependencies: dependencies.engine)
        keys = APIKeyStore(client: database.app)
        var settings = configuration.server
        settings.developmentKeys = developmentKeys.fallbacks
        settings.metricsGauges += AppMetrics.gaugeReaders(database: database.app, unico: dependencies.engine.allUnicoClients)
        let server = APIServer(
            configuration: settings, journeys: journeys, keys: keys, reports: database.reports, dependencies: dependencies)
        self.server = server
        worker = try configuration.workers.map { [journeys] in
            try WorkerService(configuration: $0, journeys: journeys, metrics: server.metrics)
        }
    }

    /// The router of ``server`` (tests call it without a socket).
    public var router: Router { server.router }

    /// A logger writing where the configuration says.
    func logger(_ label: String) -> Logger { Logger(label: label, sink: configuration.logSink) }

    /// Another worker over the process's ``journeys`` (the tests run several).
    public func worker(_ configuration: WorkerService.Configuration) throws -> WorkerService {
        try WorkerService(configuration: configuration, journeys: journeys, metrics: server.metrics)
    }

    /// The retention policy over the process's ``journeys``, reading the models on `projector`.
    public func retention(projector: PostgresClient) throws -> Retention {
        try Self.retention(configuration.retention, journeys: journeys, ledger: configuration.erasureLedger, projector: projector)
    }

    /// The long-running services, in start order: the projection (unless `projections` is
    /// false), then with workers the outbound webhooks, the workers and the retention policy
    /// (unless `JOURNEYS_RETENTION=off`), then the listener when `listener` (already started).
    public func services(projector: PostgresClient, projections: Bool = true, listener: Bool) throws -> [AppServices.Entry] {
        var services: [AppServices.Entry] = []
        if projections { services.append(AppServices.projections(projector)) }
        if let worker {
            let webhooks = OutboundWebhookService(
                owner: projector, app: database.app,
                sealer: try WebhookSecretSealer(privacy: dependencies.vault.configuration),
                configuration: configuration.outboundWebhooks)
            services.append(AppServices.webhooks(webhooks))
            services.append(AppServices.worker(worker))
            if configuration.retention.enabled {
                let service = RetentionService(
                    retention: try retention(projector: projector), clock: configuration.clock, logger: logger("retention"))
                services.append(AppServices.retention(service))
            }
        }
        if listener { services.append(AppServices.listener(server)) }
        return services
    }

    /// `serve` over `database`: refuses a non-loopback address with development keys and a
    /// projector without its rights (before reading any key or Unico setting), builds the app,
    /// starts listening, says `listening on http://HOST:PORT` (and the worker) with `writeLine`,
    /// then runs the services until SIGTERM/SIGINT.
    public static func serve(
        _ configuration: AppConfiguration, database: Database, writeLine: @Sendable (String) -> Void
    ) async throws {
        try DevelopmentKeys.of(configuration, database: database).checkListenAddress(configuration.server.http.host)
        let projector = try await database.verifiedProjector()
        try await JourneyApp(configuration, database: database).serve(projector: projector, writeLine: writeLine)
    }

    /// `work` over `database`: checks the projector's rights, builds the app (with
    /// ``AppConfiguration/workers``), and runs it as ``work(projector:projections:writeLine:)``.
    public static func work(
        _ configuration: AppConfiguration, database: Database, projections: Bool, writeLine: @Sendable (String) -> Void
    ) async throws {
        let projector = try await database.verifiedProjector()
        try await JourneyApp(configuration, database: database)
            .work(projector: projector, projections: projections, writeLine: writeLine)
    }

    /// Starts listening, says `listening on http://HOST:PORT` (and the worker) with `writeLine`,
    /// then runs the services (the followers of the log as `projector`) until SIGTERM/SIGINT.
    public func serve(projector: PostgresClient, writeLine: @Sendable (String) -> Void) async throws {
        let host = configuration.server.http.host
        try developmentKeys.checkListenAddress(host)
        developmentKeys.logWarning(logger("serve"))
        let services = try self.services(projector: projector, listener: true)
        try server.start()
        writeLine(
            "listening on http://\(host):\(server.port ?? configuration.server.http.port)"
                + (worker.map { " with worker \($0.configuration.workerID)" } ?? ""))
        try await AppServices.run(services)
    }

    /// `work`: runs the workers (and the projection when `projections`) until SIGTERM/SIGINT,
    /// saying `worker ID running` and at the end what the worker did.
    public func work(projector: PostgresClient, projections: Bool, writeLine: @Sendable (String) -> Void) async throws {
        guard let worker else { preconditionFailure("work needs AppConfiguration.workers") }
        developmentKeys.logWarning(logger("work"))
        let services = try self.services(projector: projector, projections: projections, listener: false)
        writeLine("worker \(worker.configuration.workerID) running")
        try await AppServices.run(services)
        let statistics = worker.statistics
        writeLine("worker stopped: claimed \(statistics.claimed), done \(statistics.done), postponed \(statistics.postponed)")
    }

    // Factories for the one-shot commands and the benchmarks, which need a piece, not a process.

    /// An event store on `client` (a command reading the log; a benchmark's own grouping).
    public static func eventStore(on client: PostgresClient, grouping: EventStore.Grouping = EventStore.Grouping()) -> EventStore
    {
        EventStore(client: client, grouping: grouping)
    }

    /// An engine over a new event store on `client` (a benchmark's workers).
    public static func journeys(on client: PostgresClient, dependencies: EngineDependencies) -> Journeys {
        Journeys(events: eventStore(on: client), dependencies: dependencies)
    }

    /// The engine of an operator command (cancel, subjects, retention): `privacy`'s keys, no Unico client.
    public static func operatorJourneys(database: Database, privacy: PrivacyConfiguration) -> Journeys {
        journeys(
            on: database.app,
            dependencies: EngineDependencies(vault: SubjectVault(client: database.app, configuration: privacy), unico: [:]))
    }

    /// The retention policy `configuration` over `journeys`, recording erasures in `ledger`.
    public static func retention(
        _ configuration: Retention.Configuration, journeys: Journeys, ledger: ErasureLedger?, projector: PostgresClient
    ) throws -> Retention {
        do {
            return try Retention(
                configuration: configuration, subjects: DataSubjects(journeys: journeys, ledger: ledger), readModels: projector)
        } catch let error as RetentionError {
            throw AppError(.invalidInput, error.message)
        }
    }

    /// A Unico client for `settings`: sharing the tenant's rate through the database unless the
    /// configuration says otherwise (the emulator stacks).
    private static func client(
        _ settings: HumanTokenAPIConfiguration, _ configuration: AppConfiguration, database: Database, tenantShare: Double
    ) throws -> HumanTokenAPIClient {
        guard configuration.sharedUnicoRate else {
            return try HumanTokenAPIClient(configuration: settings, clock: configuration.unicoClock)
        }
        return try UnicoSettings.client(
            settings, share: configuration.unicoShare, sharedWith: database.app, tenantShare: tenantShare)
    }
}
