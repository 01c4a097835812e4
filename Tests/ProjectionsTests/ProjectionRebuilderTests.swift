import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Projections
import Synchronization
import Testing

@Suite(.serialized) struct ProjectionRebuilderTests {
    @Test func rebuildFromZeroEqualsTheLiveProjectionRowForRow() async throws {
        try await TestDatabase.with { db in
            let schemaIndexes = try await indexNames(db)
            try await seedJourneys(db, count: 18)
            let total = try await db.waitUntilReadable()
            // The projector role runs the live projection (as serve and work do).
            let runner = ProjectionRunner(client: db.projector, configuration: .init(batchSize: 10))
            try await runner.catchUp()
            let live = try await snapshotRows(db.app)
            let checkpoint = try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name)
            #expect(live.count > 18)

            let calls = Mutex<[(Int, Int)]>([])
            let rebuilt = try await ProjectionRebuilder(client: db.owner, batchSize: 7).rebuild(name: "journey_state") {
                done, all in
                calls.withLock { $0.append((done, all)) }
            }
            #expect(rebuilt == checkpoint)
            #expect(try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name) == checkpoint)
            // The application role still reads the swapped-in tables, and they equal the live ones.
            #expect(try await snapshotRows(db.app) == live)
            let progress = calls.withLock { $0 }
            #expect(progress.first.map { $0.0 } == 0)
            #expect(progress.last.map { $0.0 == total && $0.1 == total } == true)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.0 <= $1.0 })

            // The live runner keeps going on the swapped-in tables, as the projector: the swap granted
            // the roles their rights again and recreated the analyst views over the new tables.
            let more = try await seedJourneys(db, count: 2, tag: "after")
            _ = try await db.waitUntilReadable()  // past other tests' open transactions
            #expect(try await runner.catchUp() > 0)
            let analyst = try PostgresClient(url: db.analystURL, configuration: .init(maxConnections: 1))
            defer { analyst.close() }
            let viewed = try await analyst.query("SELECT count(*) FROM analyst_journeys")
            let journeys = try await db.app.query("SELECT count(*) FROM journey_state")
            #expect(try viewed.first?.decode(0, as: Int.self) == journeys.first?.decode(0, as: Int.self))
            #expect(try viewed.first?.decode(0, as: Int.self) ?? 0 >= 20)
            let repository = JourneyCommandRunner(database: db.app)
            for id in more {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
            // And a second rebuild still works (index and table names do not collide).
            let again = try await snapshotRows(db.app)
            try await ProjectionRebuilder(client: db.owner).rebuild()
            #expect(try await snapshotRows(db.app) == again)
            // The swapped-in tables carry exactly the migrations' indexes (names and definitions, the
            // ones built after the COPY included) and are logged, as the migrations' tables.
            let indexes = try await indexNames(db)
            #expect(indexes == schemaIndexes)
            #expect(indexes.contains { $0.hasPrefix("CREATE UNIQUE INDEX journey_state_pkey ") })
            #expect(indexes.contains("journey_state persistence p"))
        }
    }

    private func indexNames(_ db: TestDatabase) async throws -> [String] {
        try await db.owner.query(
            """
            SELECT indexdef FROM pg_indexes WHERE tablename IN ('journey_state', 'journey_attempts')
            UNION ALL
            SELECT relname || ' persistence ' || relpersistence::text FROM pg_class
            WHERE relname IN ('journey_state', 'journey_attempts') AND relkind = 'r'
            ORDER BY 1
            """
        ).map { try $0.decode(0, as: String.self) }
    }

    @Test func rebuildPicksUpEventsTheLiveRunnerHasNotAppliedYet() async throws {
        try await TestDatabase.with { db in
            let ids = try await seedJourneys(db, count: 6)
            // The horizon is cluster-wide: wait until another test's transaction no longer holds it.
            _ = try await db.waitUntilReadable()
            let runner = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 4))
            #expect(try await runner.runBatch() == .applied(4))
            try await ProjectionRebuilder(client: db.owner).rebuild()
            #expect(try await runner.catchUp() == 0)
            let repository = JourneyCommandRunner(database: db.app)
            for id in ids {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
            let status = try #require(try await ProjectionStatus.read(client: db.app).first)
            #expect(status.lagEvents == 0)
        }
    }

    @Test func aRebuildKilledMidwayChangesNothingAndARestartGivesTheSameRows() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 12)
            _ = try await db.waitUntilReadable()  // past other tests' open transactions
            try await ProjectionRunner(client: db.owner).catchUp()
            let live = try await snapshotRows(db.app)
            let checkpoint = try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name)
            await #expect(throws: Injected.self) {
                // A tiny cache: states leave it (and are written) before the kill.
                try await ProjectionRebuilder(client: db.owner, batchSize: 5, cacheCapacity: 2).rebuild { done, _ in
                    if done >= 10 { throw Injected() }
                }
            }
            // Killed mid-rebuild: live rows and checkpoint untouched, half-built table left aside.
            #expect(try await snapshotRows(db.app) == live)
            #expect(try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name) == checkpoint)
            let partial = try await db.owner.query("SELECT count(*) FROM journey_state_rebuild").first!.decode(0, as: Int.self)
            #expect(partial > 0)
            // Restart: starts over and swaps in the same rows.
            try await ProjectionRebuilder(client: db.owner, batchSize: 5).rebuild()
            #expect(try await snapshotRows(db.app) == live)
            #expect(try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name) == checkpoint)
        }
    }

    @Test func rebuildWhileTheLiveRunnerAndReadersKeepGoing() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 12, tag: "before")
            let runner = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 4, pollInterval: 0.05))
            let live = Task { try await runner.run() }
            let stop = Atomic<Bool>(false)
            let reads = Task { () -> Int in
                var reads = 0
                while !stop.load(ordering: .relaxed) {
                    _ = try await db.app.query("SELECT count(*) FROM journey_state WHERE status <> 'notStarted'")
                    reads += 1
                }
                return reads
            }
            async let rebuilt: GlobalCheckpoint = ProjectionRebuilder(client: db.owner, batchSize: 3).rebuild()
            let more = try await seedJourneys(db, count: 6, tag: "during")
            _ = try await rebuilt
            let total = try await db.waitUntilReadable()
            try await waitUntil("the projection has no lag") {
                try await ProjectionStatus.read(client: db.app).first?.lagEvents == 0
            }
            live.cancel()
            _ = await live.result
            stop.store(true, ordering: .relaxed)
            #expect(try await reads.value > 0)
            #expect(try await ProjectionStatus.read(client: db.app).first?.lagEvents == 0)
            let rows = try await snapshotRows(db.app)
            #expect(try await db.app.query("SELECT count(*) FROM journey_state").first!.decode(0, as: Int.self) == 18)
            let repository = JourneyCommandRunner(database: db.app)
            for id in more {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
            #expect(total > 0)
            try await ProjectionRebuilder(client: db.owner).rebuild()
            #expect(try await snapshotRows(db.app) == rows)
        }
    }

    @Test func unknownProjectionNameIsRefused() async throws {
        try await TestDatabase.with { db in
            await #expect(throws: ProjectionRebuilder.Failure.self) {
                try await ProjectionRebuilder(client: db.owner).rebuild(name: "nope")
            }
        }
    }
}
