import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct ChainVerifierTests {
    /// Three streams of five events; returns the middle stream's name.
    func seed(_ store: EventStore) async throws -> StreamName {
        var names: [StreamName] = []
        for label in ["a", "b", "c"] {
            let name = stream(label)
            for n in 1...5 { try await store.append([event(n)], to: name, expectedVersion: .exact(Int64(n - 1))) }
            names.append(name)
        }
        return names[1]
    }

    @Test func intactLogVerifies() async throws {
        try await TestDatabase.with { db in
            _ = try await seed(EventStore(client: db.app))
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact)
            #expect(report.streams == 3)
            #expect(report.events == 15)
        }
    }

    @Test func anEventAlteredBySuperuserIsReportedAtItsPosition() async throws {
        try await TestDatabase.with { db in
            let target = try await seed(EventStore(client: db.app))
            let position = try await tamper(db, "UPDATE events SET data = '{\"n\": 99}'", stream: target, version: 3)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.firstBreak?.stream == target)
            #expect(report.firstBreak?.version == 3)
            #expect(report.firstBreak?.position == position)
            #expect(report.firstBreak?.reason.contains("altered") == true)
        }
    }

    @Test func anAlteredTimestampOrActorIsDetected() async throws {
        try await TestDatabase.with { db in
            let target = try await seed(EventStore(client: db.app))
            _ = try await tamper(db, "UPDATE events SET actor = 'mallory'", stream: target, version: 2)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.firstBreak?.version == 2)
        }
    }

    @Test func aRemovedEventIsReported() async throws {
        try await TestDatabase.with { db in
            let target = try await seed(EventStore(client: db.app))
            _ = try await tamper(db, "DELETE FROM events", stream: target, version: 2)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.firstBreak?.stream == target)
            #expect(report.firstBreak?.version == 2)
            #expect(report.firstBreak?.reason.contains("missing") == true)
        }
    }

    @Test func aRemovedLastEventIsReportedThroughTheStreamHead() async throws {
        try await TestDatabase.with { db in
            let target = try await seed(EventStore(client: db.app))
            _ = try await tamper(db, "DELETE FROM events", stream: target, version: 5)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.firstBreak?.stream == target)
            #expect(report.firstBreak?.version == 5)
        }
    }

    @Test func aRechainedForgeryStillBreaksAtTheHead() async throws {
        // A forger who rewrites one event and recomputes its hash breaks the next link.
        try await TestDatabase.with { db in
            let target = try await seed(EventStore(client: db.app))
            _ = try await tamper(
                db,
                """
                UPDATE events SET data = '{"n": 42}',
                  hash = event_hash(previous_hash, stream_name, stream_version, event_id, event_type, '{"n": 42}',
                                    correlation_id, causation_id, actor, recorded_at)
                """, stream: target, version: 4)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.firstBreak?.version == 5)
            #expect(report.firstBreak?.reason.contains("previous hash") == true)
        }
    }

    /// Runs `sql` as the superuser with triggers off, restricted to one event; returns its position.
    func tamper(_ db: TestDatabase, _ sql: String, stream: StreamName, version: Int64) async throws -> Int64 {
        try await db.superuser.withConnection { connection in
            let position = try connection.query(
                """
                SELECT position FROM events WHERE stream_name = \(stream.rawValue) AND stream_version = \(version)
                """
            ).first!.decode(0, as: Int64.self)
            try connection.execute(unsafeSQL: "SET session_replication_role = replica")
            try connection.query(PostgresQuery(unsafeSQL: sql + " WHERE position = $1", binds: [String(position)]))
            try connection.execute(unsafeSQL: "RESET session_replication_role")
            return position
        }
    }
}
