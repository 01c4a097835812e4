import AccessControl
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyAPI
import JourneyApp
import JourneyDomain
import JourneyEngine
import Postgres
import Projections
import UnicoEmulator
import Workers

/// The whole stack for a test: a fresh database, the Unico emulator on loopback, the service
/// built by `JourneyApp` through `LocalStack` (as `serve`, `demo` and `bench e2e` build it) and
/// called in-process, API keys,
/// the projection runner and workers, all on one ``TestClock`` unless told otherwise.
public struct TestStack: Sendable {
    public let database: TestDatabase
    /// The emulator, service and Unico clients, as `LocalStack` wires them.
    public let local: LocalStack
    /// The stack's clock (read by whoever ``Options/time`` says).
    public let clock: TestClock
    public let options: Options
    /// Calls the service's router without a socket.
    public let client: TestClient
    /// Holds `journeys:write` and `journeys:read`.
    public let writer: String
    /// Holds `journeys:read` and `human-token:read` (opens Human Tokens; send `Disclosure-Purpose`).
    public let reader: String
    /// Holds `reports:read` only.
    public let reporter: String
    /// Applies events to `journey_state` (driven by the test).
    public let projections: ProjectionRunner

    public var emulator: UnicoEmulator { local.emulator }
    public var emulatorURL: URL { local.unicoURL }
    public var service: APIServer { local.service }
    public var dependencies: JourneyDependencies { local.dependencies }
    /// The UAT client of the emulator, as the service uses it.
    public var unico: HumanTokenAPIClient { local.unicoClients[.uat]! }
    /// The UAT client's settings (for child processes).
    public var unicoConfiguration: HumanTokenAPIConfiguration { local.unicoConfigurations[.uat]! }
    /// The UAT service account's private key, as PEM (for child processes).
    public var privateKeyPEM: String { (try? Self.account.privateKeyPEM()) ?? "" }
    /// The service's loopback port when it listens (``Options/listen`` or emulator webhooks).
    public var port: Int? { service.port }
    /// The service's metrics in the Prometheus text format.
    public var metricsText: String { service.metrics.render() }

    /// The time as the service reads it.
    public func now() -> Date { options.time == .manual ? clock.now() : Date() }

    /// Sends a request to the service in-process (see ``TestClient/send(_:_:bearer:headers:json:form:)``).
    public func send(
        _ method: String, _ uri: String, bearer: String? = nil, headers: [String: String] = [:],
        json: Any? = nil, form: String? = nil
    ) async throws -> TestResponse {
        try await client.send(method, uri, bearer: bearer, headers: headers, json: json, form: form)
    }

    /// The composition root the stack runs (as `serve` builds it, with the emulator's settings).
    public var app: JourneyApp { local.app }

    /// A worker over the stack's one engine (the service's), or over an engine of its own on
    /// `database` when given (another pool, a PgBouncer).
    public func worker(_ configuration: WorkerService.Configuration, database: PostgresClient? = nil) throws -> WorkerService {
        let journeys = database.map { Journeys(database: $0, dependencies: dependencies.engine) } ?? app.journeys
        return try WorkerService(configuration: configuration, journeys: journeys)
    }

    /// The UAT service account `journeys@acme`, generated once per process (RSA keys are slow to make).
    public static let account: DevelopmentServiceAccount = {
        do {
            return try DevelopmentServiceAccount.generate(tenantID: "acme", name: "journeys", environment: .uat)
        } catch {
            preconditionFailure("could not generate the test service account: \(error)")
        }
    }()

    /// Runs `body` against a stack over a fresh database (or `database`, which the caller drops),
    /// then stops it and drops the database it created.
    public static func with(
        _ options: Options = Options(), database: TestDatabase? = nil,
        _ body: (TestStack) async throws -> Void
    ) async throws {
        if options.alone, TestPermits.reservation == nil {
            try await TestPermits.shared.alone { try await with(options, database: database, body) }
            return
        }
        let db: TestDatabase
        if let database {
            db = database
        } else {
            db = try await TestDatabase.create(poolSize: options.poolSize, restartable: options.restartable)
        }
        let stack: TestStack
        do {
            stack = try await start(options, database: db)
        } catch {
            if database == nil { await db.drop() }
            throw error
        }
        do {
            try await body(stack)
        } catch {
            await stack.local.stop()
            if database == nil { await db.drop() }
            throw error
        }
        await stack.local.stop()
        if database == nil { await db.drop() }
    }

    /// A stack whose emulator sends webhooks to the service: the service's port goes into the
    /// emulator's configuration before either starts, so it is a free port drawn in advance, which
    /// another test may take in between; then the stack starts again on another one.
    private static func startWithWebhooks(
        _ authentication: UnicoEmulator.WebhookAuthentication, configuration: LocalStack.Configuration,
        database: TestDatabase
    ) async throws -> LocalStack {
        var configuration = configuration
        var attempt = 0
        while true {
            attempt += 1
            let port = try freePort()
            configuration.port = port
            configuration.emulatorWebhook = UnicoEmulator.WebhookConfiguration(
                url: URL(string: "http://127.0.0.1:\(port)/v1/webhooks/unico")!, authentication: authentication,
                maxAttempts: 3, requestTimeout: .seconds(10))
            do {
                return try await LocalStack.start(app: database.app, configuration: configuration)
            } catch let error as HTTPServerError where error.code == .startFailed && attempt < 5 {
                continue
            }
        }
    }

    /// Starts the emulator and wires the service over `database`; the caller stops `local`.
    public static func start(_ options: Options, database: TestDatabase) async throws -> TestStack {
        let clock = TestClock(options.clockStart)
        var configuration = LocalStack.Configuration(clock: options.time == .system ? SystemEmulatorClock() : clock)
        if options.time != .manual { configuration.serviceClock = Date.init }
        if options.time == .manual { configuration.clientClock = clock.read }
        configuration.accounts = [account]
        configuration.faults = options.faults
        // Tests read /metrics right after changing the database; the cache has tests of its own.
        configuration.metricsGaugeLifetime = .zero
        configuration.seed = 0
        configuration.emulatorRateLimit = options.emulatorRateLimit
        configuration.clientRateLimit = options.clientRateLimit
        configuration.clientRequestTimeout = options.requestTimeout
        configuration.retryPolicy = options.retryPolicy
        configuration.webhookAuthentication = options.webhookAuthentication
        configuration.rateLimits = options.rateLimits
        configuration.responseShape = options.responseShape
        configuration.lookup = options.lookup
        configuration.startStages = options.startStages
        configuration.port = options.listen ? 0 : nil
        let local: LocalStack
        if let authentication = options.emulatorWebhooks {
            local = try await startWithWebhooks(authentication, configuration: configuration, database: database)
        } else {
            local = try await LocalStack.start(app: database.app, configuration: configuration)
        }
        do {
            let keys = local.app.keys
            let reader = try await keys.create(name: "reader", scopes: [.journeysRead, .humanTokenRead]).plaintext
            let reporter = try await keys.create(name: "reporter", scopes: [.reportsRead]).plaintext
            return TestStack(
                database: database, local: local, clock: clock, options: options,
                client: TestClient(router: local.service.router), writer: local.apiKey, reader: reader,
                reporter: reporter, projections: ProjectionRunner(client: database.projector))
        } catch {
            await local.stop()
            throw error
        }
    }
}
