import CLI
import Cryptography
import EventStore
import Foundation
import JourneyCommands
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres

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
