import AccessControl
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyAPI
import Privacy
import UnicoEmulator

/// The emulator and the journey service in this process, with an API key: what `demo` and
/// `bench e2e` run against.
public struct LocalStack: Sendable {
    public let emulator: UnicoEmulator
    public let service: APIServer
    public let clock: ManualEmulatorClock
    public let unicoURL: URL
    /// Calls the journey service on loopback.
    public let api: LocalStackHTTP
    /// An API key with the journeys read and write scopes.
    public let apiKey: String
    /// The service's own Unico clients (benchmarks call Unico directly with them as a baseline).
    public let unicoClients: [Environment: HumanTokenAPIClient]
    /// What the service runs with; the demo's workers share it.
    public let dependencies: JourneyDependencies

    /// Starts both on free loopback ports. The emulator's rate limit is off and its clock is
    /// manual (the demo moves it to expire tokens); the client's own limiter is raised to match.
    public static func start(database: Database, faults: FaultScript = .none,
                             retryPolicy: RetryPolicy = .standard) async throws -> LocalStack {
        let clock = ManualEmulatorClock(start: Date())
        // UAT and PROD are separate systems with separate accounts, as at Unico.
        let accounts = try [UnicoEmulator.Environment.uat, .prod].map {
            try DevelopmentServiceAccount.generate(tenantID: "dev-tenant-\($0.rawValue.lowercased())", environment: $0)
        }
        var configuration = UnicoEmulator.Configuration(
            port: 0, serviceAccounts: accounts.map(\.account), faultScript: faults, seed: 7, clock: clock, accessLog: { _ in })
        configuration.acceptsBaseURLAsAudience = true
        configuration.rateLimitPerSecond = 0
        let emulator = try UnicoEmulator(configuration: configuration)
        try emulator.start()
        guard let unicoURL = emulator.baseURL else { throw AppError(.invalidInput, "the emulator did not start") }

        var clients: [Environment: HumanTokenAPIClient] = [:]
        for (account, environment, api) in [(accounts[0], Environment.uat, HumanTokenAPIEnvironment.uat), (accounts[1], .prod, .prod)] {
            clients[environment] = try HumanTokenAPIClient(configuration: HumanTokenAPIConfiguration(
                environment: api, serviceAccount: account.account.name, tenant: account.account.tenantID,
                privateKey: .pem(try account.privateKeyPEM()), tokenHost: unicoURL, apiHost: unicoURL, rateLimit: 100_000))
        }
        // One clock for Unico and the service, so moving it expires tokens on both sides.
        let dependencies = JourneyDependencies(
            vault: SubjectVault(client: database.app, configuration: .development()),
            clientTokens: try .development(), unico: clients, retryPolicy: retryPolicy, clock: { clock.now() })
        var serviceConfiguration = APIServer.Configuration()
        serviceConfiguration.http.port = 0
        serviceConfiguration.accessLog = AccessLogEntry.discard
        let service = APIServer(configuration: serviceConfiguration, database: database.app, dependencies: dependencies)
        try service.start()
        guard let port = service.port else { throw AppError(.invalidInput, "the service did not start") }
        let key = try await APIKeyStore(client: database.app).create(
            name: "local-\(UUID().uuidString.prefix(8))", scopes: [.journeysWrite, .journeysRead]).plaintext
        return LocalStack(emulator: emulator, service: service, clock: clock, unicoURL: unicoURL,
                          api: LocalStackHTTP(baseURL: URL(string: "http://127.0.0.1:\(port)")!), apiKey: key,
                          unicoClients: clients, dependencies: dependencies)
    }

    /// Starts a stack, runs `body` with it and stops it on every way out.
    public static func with<Result>(database: Database, faults: FaultScript = .none, retryPolicy: RetryPolicy = .standard,
                                    _ body: (LocalStack) async throws -> Result) async throws -> Result {
        let stack = try await start(database: database, faults: faults, retryPolicy: retryPolicy)
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
