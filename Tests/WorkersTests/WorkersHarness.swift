import AccessControl
import EventStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HumanTokenAPI
import JourneyDomain
import JourneyAPI
import JourneyStore
import JourneyTesting
import Postgres
import Projections
import SDKLiteSimulator
import Testing
import UnicoEmulator
import Workers

/// A migrated database, the Unico emulator and the journey service on loopback, all on one manual
/// clock; the projection runner and workers are driven by the test.
struct WorkersHarness: Sendable {
    let database: TestDatabase
    let clock: ManualEmulatorClock
    let emulator: UnicoEmulator
    let emulatorURL: URL
    let unicoConfiguration: HumanTokenAPIConfiguration
    /// The emulator's service-account key, for child processes.
    let privateKeyPEM: String
    /// True when everything runs on the system clock (for child processes) instead of `clock`.
    let realTime: Bool
    let dependencies: JourneyDependencies
    let projections: ProjectionRunner
    let port: Int
    let writer: String

    /// A worker on the harness's app pool unless `database` is given.
    func worker(_ configuration: WorkerService.Configuration = WorkersHarness.quick(),
                database: PostgresClient? = nil) throws -> WorkerService {
        try WorkerService(configuration: configuration, database: database ?? self.database.app, dependencies: dependencies.engine)
    }

    static func quick(_ id: String = "w-\(UUID().uuidString.prefix(6))") -> WorkerService.Configuration {
        WorkerService.Configuration(pollInterval: .milliseconds(20), batchSize: 50, leaseDuration: 30,
                                    heartbeatInterval: .seconds(5), concurrency: 4, workerID: id)
    }

    /// Applies every event to `journey_state`.
    func catchUp() async throws { try await projections.catchUp() }

    /// Catches the read model up, then runs one poll of `worker`; returns the items it claimed.
    @discardableResult
    func poll(_ worker: WorkerService) async throws -> Int {
        try await catchUp()
        return try await worker.runOnce()
    }

    func now() -> Date { realTime ? Date() : clock.now() }

    // MARK: - HTTP

    struct Answer: Sendable {
        let status: Int
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        subscript(_ key: String) -> Any? { json[key] }
    }

    func send(_ method: String, _ path: String, json: Any? = nil, bearer: String? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(bearer ?? writer)", forHTTPHeaderField: "Authorization")
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as! HTTPURLResponse).statusCode, body: data)
    }

    /// Starts a journey through the API; returns the answer (201 when Unico created the process).
    func start() async throws -> Answer {
        try await send("POST", "/v1/journeys", json: [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                        "friendlyName": "Maria"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "clientReference": "order-42",
        ])
    }

    /// Starts a journey whose first process is created; returns its id.
    func startCreated() async throws -> JourneyID {
        let answer = try await start()
        #expect(answer.status == 201)
        return JourneyID(try #require(answer["journeyId"] as? String))
    }

    /// Records a start without calling Unico, as if the process crashed right after the intent.
    func startWithoutCalling(at time: Date? = nil) async throws -> JourneyID {
        let id = JourneyID(UUID().uuidString.lowercased())
        let input = StartJourneyInput(
            environment: "UAT", flow: "humantoken", purpose: "creditprocess",
            subject: SubjectInput(documentType: "DUI_TYPE_BR_CPF", documentNumber: "12345678909", name: "Maria Silva Souza",
                                  friendlyName: "Maria"),
            clientReference: "crash")
        let valid = try input.validated()
        let (vault, policy, now) = (dependencies.vault, dependencies.retryPolicy, time ?? self.now())
        _ = try await database.app.transaction { connection in
            let sealed = try vault.seal(valid.subject, on: connection)
            _ = try JourneyRepository.execute(.start(valid.command(journeyID: id, subject: sealed, retryPolicy: policy)), journey: id,
                                          metadata: EventMetadata(actor: "test"), now: now, randomUnit: 0, on: connection)
        }
        return id
    }

    /// The journey's state from its events.
    func state(_ id: JourneyID) async throws -> JourneyState {
        try await database.app.withConnection { try JourneyRepository.load(id, on: $0).state }
    }

    func eventTypes(_ id: JourneyID) async throws -> [String] {
        let rows = try await database.owner.query("""
            SELECT event_type FROM events WHERE stream_name = \("journey-" + id.rawValue) ORDER BY stream_version
            """)
        return try rows.map { try $0.decode(0, as: String.self) }
    }

    /// Every journey id in the log.
    func journeyIDs() async throws -> [JourneyID] {
        let rows = try await database.owner.query(
            "SELECT DISTINCT substr(stream_name, 9) FROM events WHERE stream_name LIKE 'journey-%' ORDER BY 1")
        return try rows.map { JourneyID(try $0.decode(0, as: String.self)) }
    }

    /// Processes at the emulator per client reference: never more than one per attempt.
    func processesPerClientReference() -> [String: Int] {
        var counts: [String: Int] = [:]
        for process in emulator.processes() { counts[process.clientReference ?? "", default: 0] += 1 }
        return counts
    }

    /// The app's side: asks for the token, runs the simulated device as `user`, sends the success callback.
    func capture(_ id: JourneyID, as user: SimulatedUser = .approve) async throws -> Bool {
        let token = try await send("POST", "/v1/journeys/\(id.rawValue)/token")
        guard token.status == 200 || token.status == 201, let webAppToken = token["webAppToken"] as? String else { return false }
        let outcome = await SimulatedDevice(emulatorURL: emulatorURL).run(webAppToken: webAppToken, environment: .UAT, user: user)
        guard let processID = outcome.processId, let uuid = UUID(uuidString: id.rawValue) else { return false }
        let clientToken = try dependencies.clientTokens.issue(journeyID: uuid, now: now())
        let callback = try await send("POST", "/v1/journeys/\(id.rawValue)/callback",
                                      json: ["outcome": "success", "processId": processID], bearer: clientToken)
        return callback.status < 300
    }
}

/// Runs `body` against a fresh database, an emulator with `faults`, and the service with `policy`.
func withWorkers(faults: FaultScript = .none, policy: RetryPolicy = .standard, requestTimeout: TimeInterval = 5,
                 realTime: Bool = false, _ body: (WorkersHarness) async throws -> Void) async throws {
    let db = try await TestDatabase.create(poolSize: 12)
    let clock = ManualEmulatorClock(start: Date(timeIntervalSince1970: 1_780_000_000))
    let account = try DevelopmentServiceAccount.generate(tenantID: "acme", name: "journeys", environment: .uat)
    let emulator = try UnicoEmulator(configuration: .init(
        port: 0, serviceAccounts: [account.account], acceptsBaseURLAsAudience: true, rateLimitPerSecond: 10_000,
        faultScript: faults, clock: realTime ? SystemEmulatorClock() as any EmulatorClock : clock, accessLog: { _ in }))
    try emulator.start()
    do {
        let baseURL = try #require(emulator.baseURL)
        let unicoConfiguration = HumanTokenAPIConfiguration(
            environment: .uat, serviceAccount: "journeys", tenant: "acme", privateKey: .pem(try account.privateKeyPEM()),
            tokenHost: baseURL, apiHost: baseURL, requestTimeout: requestTimeout, rateLimit: 1000)
        let system: @Sendable () -> Date = { Date() }
        let manual: @Sendable () -> Date = { clock.now() }
        let now = realTime ? system : manual
        let unico = try HumanTokenAPIClient(configuration: unicoConfiguration, clock: now)
        var dependencies = try JourneyDependencies.development(database: db.app, unico: [.uat: unico])
        dependencies.retryPolicy = policy
        dependencies.clock = now
        let writer = try await APIKeyStore(client: db.app).create(name: "backend", scopes: [.journeysWrite, .journeysRead]).plaintext
        var serviceConfiguration = APIServer.Configuration()
        serviceConfiguration.http.port = 0
        serviceConfiguration.accessLog = { _ in }
        let service = APIServer(configuration: serviceConfiguration, database: db.app, dependencies: dependencies)
        try service.start()
        let harness = WorkersHarness(
            database: db, clock: clock, emulator: emulator, emulatorURL: baseURL, unicoConfiguration: unicoConfiguration,
            privateKeyPEM: try account.privateKeyPEM(), realTime: realTime, dependencies: dependencies,
            projections: ProjectionRunner(client: db.owner), port: try #require(service.port), writer: writer)
        do {
            try await body(harness)
        } catch {
            await service.shutdown()
            throw error
        }
        await service.shutdown()
    } catch {
        await emulator.shutdown()
        await db.drop()
        throw error
    }
    await emulator.shutdown()
    await db.drop()
}
