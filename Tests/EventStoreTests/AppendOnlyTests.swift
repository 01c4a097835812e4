import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct AppendOnlyTests {
    @Test func applicationRoleCannotChangeOrWriteTheLogDirectly() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = stream()
            try await store.append([event(1)], to: name, expectedVersion: .noStream)
            let statements: [PostgresQuery] = [
                "UPDATE events SET data = '{}'",
                "DELETE FROM events",
                "TRUNCATE events",
                "INSERT INTO events (stream_name, stream_version, event_id, event_type, data, recorded_at, previous_hash, hash) VALUES ('x', 1, gen_random_uuid(), 't', '{}', now(), '', '')",
                "UPDATE streams SET version = 0",
                "DROP TABLE events",
            ]
            for statement in statements {
                let error = await captureError { try await db.app.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }
            #expect(try await store.readStream(name).count == 1)
        }
    }

    @Test func evenTheOwnerCannotUpdateDeleteOrTruncate() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            try await store.append([event(1)], to: stream(), expectedVersion: .noStream)
            for statement: PostgresQuery in ["UPDATE events SET data = '{}'", "DELETE FROM events", "TRUNCATE events"] {
                let error = await captureError { try await db.owner.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
                #expect(error?.message.contains("append-only") == true)
            }
            #expect(try await db.owner.query("SELECT count(*) FROM events").first?.decode(0, as: Int.self) == 1)
        }
    }
}
