import CLI
import Cryptography
import EventStore
import Foundation
import JourneyCommands
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres

func sealed(_ label: String) -> SealedField {
    SealedField(ciphertext: Data("sealed:\(label)".utf8).base64EncodedString(), keyID: "k1")
}

/// Runs `journeys` in-process against a test database; returns exit code, output and errors.
func journeys(_ arguments: [String], database: TestDatabase? = nil, extra: [String: String] = [:]) async
    -> (code: Int32, output: String, error: String)
{
    var variables = extra
    if let database {
        variables["DATABASE_URL"] = database.appURL
        variables["DATABASE_ADMIN_URL"] = database.ownerURL
        variables["DATABASE_PROJECTOR_URL"] = database.projectorURL
    }
    return await JourneysCommand.run(arguments, variables: variables)
}

/// The commands of a journey that is approved on its second attempt: start, process created,
/// token issued, capture opened, SDK error callback (retry scheduled), a token request that
/// starts attempt 2, its process, token, capture, success callback, approved result.
func approvedOnSecondAttempt(_ id: JourneyID) -> [JourneyCommand] {
    let first = ProcessID("proc-\(id.rawValue)-1")
    let second = ProcessID("proc-\(id.rawValue)-2")
    return [
        .start(
            StartJourney(
                journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
                subject: SealedSubject(
                    reference: SubjectReference("ref-\(id.rawValue)"), documentType: .brCPF,
                    documentNumber: sealed("12345678909"), name: sealed("Maria Silva")),
                clientReference: "order-1")),
        .recordProcessCreated(
            ProcessCreation(
                attempt: 1, processID: first, webAppToken: sealed("wat-1"),
                processToken: nil, link: nil, tokenExpiresAt: nil)),
        .issueToken,
        .recordCaptureOpened(attempt: 1),
        .recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)),
        .issueToken,
        .recordProcessCreated(
            ProcessCreation(
                attempt: 2, processID: second, webAppToken: sealed("wat-2"),
                processToken: nil, link: nil, tokenExpiresAt: nil)),
        .issueToken,
        .recordCaptureOpened(attempt: 2),
        .recordCallback(attempt: 2, outcome: .success(processID: second)),
        .recordResult(
            attempt: 2,
            snapshot: ProcessSnapshot(
                state: .finished, result: .ok, humanToken: sealed("ht"),
                finishedAt: Date())),
    ]
}

/// Appends `commands` one by one; returns, per command that appended, the stream version after it.
@discardableResult
func record(_ commands: [JourneyCommand], journey id: JourneyID, db: TestDatabase) async throws -> [Int64] {
    let repository = JourneyCommandRunner(database: db.app)
    var versions: [Int64] = []
    for command in commands {
        let outcome = try await repository.execute(command, journey: id, metadata: EventMetadata(actor: "api-key:test"))
        if !outcome.events.isEmpty { versions.append(outcome.version) }
    }
    return versions
}

/// The recorded_at of each event of `id`, by version.
func recordedTimes(_ id: JourneyID, db: TestDatabase) async throws -> [Date] {
    try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue)).map(\.recordedAt)
}

/// Runs `sql` as the superuser with triggers off (how an attacker with database access would).
func tamper(_ db: TestDatabase, _ sql: String) async throws {
    try await db.superuser.withConnection { connection in
        try connection.execute(unsafeSQL: "SET session_replication_role = replica")
        try connection.execute(unsafeSQL: sql)
        try connection.execute(unsafeSQL: "RESET session_replication_role")
    }
}

/// A fresh folder for key files.
func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "audit-tests-\(UUID().uuidString.lowercased())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Waits until every committed event is readable in the global order (other tests' transactions
/// can hold the cluster-wide horizon back for a moment).
func waitUntilReadable(_ db: TestDatabase) async throws {
    try await waitUntil("every committed event is readable") {
        let row = try await db.owner.query(
            """
            SELECT count(*) FILTER (WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())), count(*) FROM events
            """
        ).first!
        return try row.decode(0, as: Int.self) == row.decode(1, as: Int.self)
    }
}
