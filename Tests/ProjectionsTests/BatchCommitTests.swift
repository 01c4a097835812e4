import EventStore
import Foundation
import JourneyTesting
import Postgres
import Projections
import Synchronization
import Testing

/// How a runner's batch commits (issue 15.6): without waiting for the WAL flush unless asked to,
/// and reported to `afterCommit` once committed, with every event exactly once.
@Suite(.serialized) struct BatchCommitTests {
    /// Records `synchronous_commit` as each batch sees it, and the positions it applied.
    final class Recording: Projection {
        let settings = Mutex<[String]>([])
        let applied = Mutex<[Int64]>([])
        var name: String { "recording" }
        func apply(_ events: [RecordedEvent], on connection: PostgresConnection) throws {
            let setting = try connection.query("SELECT current_setting('synchronous_commit')").first!.decode(0, as: String.self)
            settings.withLock { $0.append(setting) }
            applied.withLock { $0 += events.map(\.position) }
        }
    }

    @Test func runnerBatchesCommitWithoutWaitingForTheFlushAndReportEachCommit() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 4)
            let total = try await db.waitUntilReadable()
            let recording = Recording()
            let committed = Mutex<[Int64]>([])
            var configuration = ProjectionRunner.Configuration(batchSize: 5)
            configuration.afterCommit = { events in committed.withLock { $0 += events.map(\.position) } }
            #expect(configuration.synchronousCommit == false)
            #expect(
                try await ProjectionRunner(client: db.owner, projection: recording, configuration: configuration).catchUp()
                    == total)

            let settings = recording.settings.withLock { $0 }
            #expect(settings.count > 1)
            #expect(settings.allSatisfy { $0 == "off" })
            // Every event reported once, in order, after its batch committed (its checkpoint is stored).
            let all = try await EventStore(client: db.app).readAll(after: .start, limit: 10_000)
            #expect(committed.withLock { $0 } == all.map(\.position))
            #expect(try await CheckpointStore(client: db.app).checkpoint("recording") == all.last?.checkpoint)
        }
    }

    @Test func synchronousCommitKeepsTheServersSetting() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 2)
            // Another test's open transaction (transaction ids are the cluster's) can hold the
            // seeded events past the readable horizon: wait until followers may read them all.
            _ = try await db.waitUntilReadable()
            let server = try await db.owner.query("SELECT current_setting('synchronous_commit')").first!.decode(
                0, as: String.self)
            let recording = Recording()
            try await ProjectionRunner(
                client: db.owner, projection: recording,
                configuration: .init(batchSize: 3, synchronousCommit: true)
            ).catchUp()
            #expect(!recording.settings.withLock { $0 }.isEmpty)
            #expect(recording.settings.withLock { $0 }.allSatisfy { $0 == server })

            // A bare follower (webhooks, other handlers) keeps the server's setting by default.
            let seen = Mutex<[String]>([])
            let follower = LogFollower(client: db.owner, checkpoint: .stored(name: "bare")) { _, connection in
                let setting = try connection.query("SELECT current_setting('synchronous_commit')").first!.decode(
                    0, as: String.self)
                seen.withLock { $0.append(setting) }
            }
            #expect(try await follower.catchUp() > 0)
            #expect(seen.withLock { $0 } == [server])
        }
    }
}
