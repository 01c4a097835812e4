import AccessControl
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyAPI
import Postgres
import Privacy
import UnicoEmulator

/// The emulator and the journey service in this process, with an API key: what `demo` and
/// `bench e2e` run against, and what the tests' `TestStack` wraps.
public struct LocalStack: Sendable {
    public let emulator: UnicoEmulator
    /// The service, built as `serve` builds it: one event store, one engine, one key store.
    public let app: JourneyApp
    public var service: APIServer { app.server }
    /// The emulator's clock (the demo's is manual and moved by it).
    public let clock: any EmulatorClock
    public let unicoURL: URL
    /// The emulated service accounts, with their private keys.
    public let accounts: [DevelopmentServiceAccount]
    /// Calls the journey service on loopback; nil when the service does not listen.
    public let http: LocalStackHTTP?
    /// An API key with the journeys read and write scopes.
    public let apiKey: String
    /// The service's own Unico clients (benchmarks call Unico directly with them as a baseline).
    public var unicoClients: [Environment: HumanTokenAPIClient] { app.unicoClients }
    /// The Unico clients' settings, per environment.
    public let unicoConfigurations: [Environment: HumanTokenAPIConfiguration]
    /// What the service runs with; the demo's workers share it.
    public var dependencies: JourneyDependencies { app.dependencies }

    /// Calls the journey service on loopback (the stack was started with a port).
    public var api: LocalStackHTTP {
        guard let http else { preconditionFailure("the local stack's service does not listen") }
        return http
    }

    /// Starts both on free loopback ports with `configuration` over `database`'s application pool.
    public static func start(database: Database, configuration: Configuration = Configuration()) async throws -> LocalStack {
        try await start(app: database.app, configuration: configuration)
    }

    /// Starts the emulator on a free loopback port and the service on `configuration.port` (or not
    /// at all), both over `app`, with an API key holding the journeys read and write scopes.
    public static func start(app: PostgresClient, configuration: Configuration) async throws -> LocalStack {
        let accounts =
            try configuration.accounts
            ?? [UnicoEmulator.Environment.uat, .prod].map {
                try DevelopmentServiceAccount.generate(tenantID: "dev-tenant-\($0.rawValue.lowercased())", environment: $0)
            }
        var emulatorConfiguration = UnicoEmulator.Configuration(
            port: 0, serviceAccounts: accounts.map(\.account), webhook: configuration.emulatorWebhook,
            faultScript: configuration.faults, seed: configuration.seed, clock: configuration.clock, accessLog: { _ in })
        emulatorConfiguration.acceptsBaseURLAsAudience = true
        emulatorConfiguration.rateLimitPerSecond = configuration.emulatorRateLimit
        emulatorConfiguration.responseShape = configuration.responseShape
        let emulator = try UnicoEmulator(configuration: emulatorConfiguration)
        try emulator.start()
        do {
            return try await wire(app: app, emulator: emulator, accounts: accounts, configuration: configuration)
        } catch {
            await emulator.shutdown()
            throw error
        }
    }

    /// The emulator's Unico settings in an ``AppConfiguration`` built into a ``JourneyApp`` (as
    /// `serve` builds its own), and an API key, around a started emulator.
    private static func wire(
        app client: PostgresClient, emulator: UnicoEmulator, accounts: [DevelopmentServiceAccount],
        configuration: Configuration
    ) async throws -> LocalStack {
        guard let unicoURL = emulator.baseURL else { throw AppError(.invalidInput, "the emulator did not start") }
        var settings: [Environment: HumanTokenAPIConfiguration] = [:]
        for account in accounts {
            let (environment, api): (Environment, HumanTokenAPIEnvironment) =
                account.account.environment == .uat ? (.uat, .uat) : (.prod, .prod)
            settings[environment] = HumanTokenAPIConfiguration(
                environment: api, serviceAccount: account.account.name, tenant: account.account.tenantID,
                privateKey: .pem(try account.privateKeyPEM()), tokenHost: unicoURL, apiHost: unicoURL,
                requestTimeout: configuration.clientRequestTimeout, rateLimit: configuration.clientRateLimit,
                lookup: configuration.lookup)
        }
        let app = try JourneyApp(
            try configuration.appConfiguration(unico: settings),
            database: Database(app: client, admin: client, embedded: nil, reports: configuration.reports))
        let service = app.server
        var http: LocalStackHTTP?
        if configuration.port != nil {
            try service.start()
            guard let port = service.port else { throw AppError(.invalidInput, "the service did not start") }
            http = LocalStackHTTP(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        }
        do {
            let key = try await app.keys.create(
                name: "local-\(UUID().uuidString.prefix(8))", scopes: [.journeysWrite, .journeysRead]
            ).plaintext
            return LocalStack(
                emulator: emulator, app: app, clock: configuration.clock, unicoURL: unicoURL,
                accounts: accounts, http: http, apiKey: key, unicoConfigurations: settings)
        } catch {
            await service.shutdown()
            throw error
        }
    }

    /// Starts a stack, runs `body` with it and stops it on every way out.
    public static func with<Result>(
        database: Database, configuration: Configuration = Configuration(),
        _ body: (LocalStack) async throws -> Result
    ) async throws -> Result {
        let stack = try await start(database: database, configuration: configuration)
        do {
            let result = try await body(stack)
            await stack.stop()
            return result
        } catch {
            await stack.stop()
            throw error
        }
    }

    /// Shuts the service, then the emulator, down; awaited, so nothing outlives the caller.
    public func stop() async {
        await service.shutdown()
        await emulator.shutdown()
    }
}
