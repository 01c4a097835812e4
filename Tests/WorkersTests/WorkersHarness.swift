import AccessControl
import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyAPI
import JourneyEngine
import JourneyTesting
import Postgres
import Projections
import SDKLiteSimulator
import Testing
import UnicoEmulator
import Workers

/// A ``TestStack`` as the worker tests see it: one manual clock (or the system clock), the
/// service called in-process, the projection runner and workers driven by the test.
struct WorkersHarness: Sendable {
    typealias Answer = TestResponse

    let stack: TestStack
    var database: TestDatabase { stack.database }
    var clock: TestClock { stack.clock }
    var emulator: UnicoEmulator { stack.emulator }
    var emulatorURL: URL { stack.emulatorURL }
    var unicoConfiguration: HumanTokenAPIConfiguration { stack.unicoConfiguration }
    /// The emulator's service-account key, for child processes.
    var privateKeyPEM: String { stack.privateKeyPEM }
    /// True when everything runs on the system clock (for child processes) instead of `clock`.
    var realTime: Bool { stack.options.time == .system }
    var dependencies: JourneyDependencies { stack.dependencies }
    var projections: ProjectionRunner { stack.projections }
    var writer: String { stack.writer }

    /// A worker on the harness's app pool unless `database` is given.
    func worker(
        _ configuration: WorkerService.Configuration = WorkersHarness.quick(),
        database: PostgresClient? = nil
    ) throws -> WorkerService {
        try stack.worker(configuration, database: database)
    }

    static func quick(_ id: String = "w-\(UUID().uuidString.prefix(6))") -> WorkerService.Configuration {
        WorkerService.Configuration(
            pollInterval: .milliseconds(20), batchSize: 50, leaseDuration: 30,
            heartbeatInterval: .seconds(5), concurrency: 4, workerID: id)
    }

    /// Applies every event to `journey_state`.
    /// Applies every event appended so far. `catchUp` alone reads below the cluster-wide MVCC
    /// horizon, which another test's open transaction (tests run in parallel on one cluster)
    /// holds back: it could return with the last appends unapplied.
    func catchUp() async throws {
        let name = projections.name
        try await waitUntil("the read model holds every event appended so far") {
            try await projections.catchUp()
            let unapplied = try await database.owner.query(
                """
                SELECT count(*)::int FROM events e, projection_checkpoints c
                WHERE c.name = \(name) AND (e.transaction_id, e.position) > (c.transaction_id, c.position)
                """)
            return try unapplied.first?.decode(0, as: Int.self) == 0
        }
    }

    /// Catches the read model up, then runs one poll of `worker`; returns the items it claimed.
    @discardableResult
    func poll(_ worker: WorkerService) async throws -> Int {
        try await catchUp()
        return try await worker.runOnce()
    }

    func now() -> Date { stack.now() }

    // MARK: - HTTP

    /// Sends a request in-process, with the writer key unless `bearer` is given.
    func send(_ method: String, _ path: String, json: Any? = nil, bearer: String? = nil) async throws -> Answer {
        try await stack.send(method, path, bearer: bearer ?? writer, json: json)
    }

    /// Starts a journey through the API; returns the answer (201 when Unico created the process).
    func start() async throws -> Answer {
        try await send(
            "POST", "/v1/journeys",
            json: [
                "subject": [
                    "documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                    "friendlyName": "Maria",
                ],
                "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                "clientReference": "order-42",
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
            subject: SubjectInput(
                documentType: "DUI_TYPE_BR_CPF", documentNumber: "12345678909", name: "Maria Silva Souza",
                friendlyName: "Maria"),
            clientReference: "crash")
        let valid = try input.validated()
        let (vault, policy, now) = (dependencies.vault, dependencies.retryPolicy, time ?? self.now())
        _ = try await database.app.transaction { connection in
            let sealed = try vault.seal(valid.subject, on: connection)
            _ = try JourneyRepository.execute(
                .start(valid.command(journeyID: id, subject: sealed, retryPolicy: policy)), journey: id,
                metadata: EventMetadata(actor: "test"), now: now, randomUnit: 0, on: connection)
        }
        return id
    }

    /// The journey's state from its events.
    func state(_ id: JourneyID) async throws -> JourneyState {
        try await database.app.withConnection { try JourneyRepository.load(id, on: $0).state }
    }

    func eventTypes(_ id: JourneyID) async throws -> [String] {
        let rows = try await database.owner.query(
            """
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
        let callback = try await send(
            "POST", "/v1/journeys/\(id.rawValue)/callback",
            json: ["outcome": "success", "processId": processID], bearer: clientToken)
        return callback.status < 300
    }
}

/// Runs `body` against a fresh database, an emulator with `faults`, and the service with `policy`.
/// With `alone`, no other test database is alive meanwhile (for timing a busy run upsets); with
/// `restartable`, the database's cluster is the test's own to stop and start.
func withWorkers(
    faults: FaultScript = .none, policy: RetryPolicy = .standard, requestTimeout: TimeInterval = 5,
    realTime: Bool = false, alone: Bool = false, restartable: Bool = false, lookup: ProcessLookup = .search,
    _ body: (WorkersHarness) async throws -> Void
) async throws {
    var options = TestStack.Options(
        time: realTime ? .system : .manual, faults: faults, retryPolicy: policy,
        requestTimeout: requestTimeout)
    options.poolSize = 12
    options.alone = alone
    options.restartable = restartable
    options.lookup = lookup
    try await TestStack.with(options) { stack in try await body(WorkersHarness(stack: stack)) }
}
