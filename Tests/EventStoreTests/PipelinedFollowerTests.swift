import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// A pipelined follower (issue 15.6): the handler's returned writes commit with the checkpoint in
/// one pipeline, and a failing write rolls back the writes before it and the checkpoint.
@Suite struct PipelinedFollowerTests {
    static let table = "CREATE TABLE pipelined_seen (position bigint PRIMARY KEY)"

    /// One write per batch: the batch's positions.
    static func record(_ events: [RecordedEvent]) -> PostgresQuery {
        "INSERT INTO pipelined_seen (position) SELECT unnest(\(events.map(\.position))::bigint[])"
    }

    static func seen(_ db: TestDatabase) async throws -> [Int64] {
        try await db.owner.query("SELECT position FROM pipelined_seen ORDER BY position").map { try $0.decode(0) }
    }

    @Test func writesCommitWithTheCheckpointInOrder() async throws {
        try await TestDatabase.with { db in
            try await db.owner.withConnection { try $0.execute(unsafeSQL: Self.table) }
            let store = EventStore(client: db.app)
            for n in 0..<7 { try await store.append([event(n)], to: stream(), expectedVersion: .noStream) }
            let follower = LogFollower.pipelined(
                client: db.owner, checkpoint: .stored(name: "pipelined"),
                configuration: .init(batchSize: 3, synchronousCommit: false)
            ) { events, _ in
                [Self.record(events)]
            }
            #expect(try await follower.catchUp() == 7)
            let all = try await store.readAll(after: .start, limit: 100)
            #expect(try await Self.seen(db) == all.map(\.position))
            #expect(try await CheckpointStore(client: db.app).checkpoint("pipelined") == all.last?.checkpoint)
            // Nothing left: an empty batch commits and changes nothing.
            #expect(try await follower.runBatch() == .applied(0))
            #expect(try await CheckpointStore(client: db.app).checkpoint("pipelined") == all.last?.checkpoint)
        }
    }

    @Test func aFailingWriteRollsBackTheBatchAndTheConnectionStaysUsable() async throws {
        try await TestDatabase.with { db in
            try await db.owner.withConnection { try $0.execute(unsafeSQL: Self.table) }
            let store = EventStore(client: db.app)
            for n in 0..<4 { try await store.append([event(n)], to: stream(), expectedVersion: .noStream) }
            // One connection: the good batch after the failure runs where the failed one ran.
            let pool = try PostgresClient(url: db.ownerURL, configuration: .init(maxConnections: 1))
            defer { pool.close() }
            let failing = LogFollower.pipelined(
                client: pool, checkpoint: .stored(name: "pipelined"),
                configuration: .init(batchSize: 2)
            ) { events, _ in
                [Self.record(events), "SELECT 1 / 0"]
            }
            await #expect(throws: PostgresError.self) { try await failing.runBatch() }
            #expect(try await Self.seen(db).isEmpty)
            #expect(try await CheckpointStore(client: db.app).checkpoint("pipelined") == .start)

            let good = LogFollower.pipelined(
                client: pool, checkpoint: .stored(name: "pipelined"),
                configuration: .init(batchSize: 2)
            ) { events, _ in [Self.record(events)] }
            #expect(try await good.catchUp() == 4)
            let all = try await store.readAll(after: .start, limit: 100)
            #expect(try await Self.seen(db) == all.map(\.position))
        }
    }
}
