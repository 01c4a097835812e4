import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Projections
import Synchronization
import Testing

@Suite(.serialized) struct ProjectionRunnerTests {
    @Test func catchUpProjectsEveryJourneyAsTheDomainFold() async throws {
        try await TestDatabase.with { db in
            let ids = try await seedJourneys(db, count: 12)
            let total = try await db.waitUntilReadable()
            let runner = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 7))
            #expect(try await runner.catchUp() == total)
            #expect(try await runner.catchUp() == 0)
            let repository = JourneyCommandRunner(database: db.app)
            for id in ids {
                let (expected, version) = try await repository.load(id)
                #expect(try await projectedState(db, id) == expected)
                let row = try #require(
                    try await db.app.query(
                        """
                        SELECT status, subject_reference, current_attempt, version, next_due_kind, outcome
                        FROM journey_state WHERE journey_id = \(id.rawValue)
                        """
                    ).first)
                #expect(try row.decode(0, as: String.self) == expected.status.rawValue)
                #expect(try row.decode(1, as: String?.self) == expected.subject?.reference.rawValue)
                #expect(try row.decode(2, as: Int.self) == expected.currentAttemptNumber)
                #expect(try row.decode(3, as: Int64.self) == version)
                #expect(try row.decode(4, as: String?.self) == expected.nextDue?.kind.rawValue)
                #expect(try row.decode(5, as: String?.self) == expected.outcome?.rawValue)
                let attempts = try await db.app.query(
                    "SELECT count(*) FROM journey_attempts WHERE journey_id = \(id.rawValue)"
                ).first!.decode(0, as: Int.self)
                #expect(attempts == expected.attempts.count)
            }
            // Variety: completed, retry scheduled and in-flight journeys are all there.
            let statuses = Set(
                try await db.app.query("SELECT DISTINCT status FROM journey_state").map { try $0.decode(0, as: String.self) })
            #expect(statuses.contains("completed"))
            #expect(statuses.count >= 4)
            #expect(
                try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name)
                    == EventStore(client: db.app).readAll(after: .start, limit: 10_000).last?.checkpoint)
        }
    }

    @Test func aBatchFailingMidwayLeavesTheCommittedBatchConsistentAndResumes() async throws {
        try await TestDatabase.with { db in
            let ids = try await seedJourneys(db, count: 6)
            let total = try await db.waitUntilReadable()
            let applied = Atomic<Int>(0)
            let failing = ProjectionRunner(
                client: db.owner,
                configuration: .init(
                    batchSize: 3,
                    afterEachEvent: { _ in
                        if applied.add(1, ordering: .relaxed).newValue == 5 { throw Injected() }
                    }))
            await #expect(throws: Injected.self) { try await failing.catchUp() }
            // Only the first batch (3 events) committed: its checkpoint and exactly its rows.
            let store = EventStore(client: db.app)
            let firstBatch = try await store.readAll(after: .start, limit: 3)
            #expect(
                try await CheckpointStore(client: db.owner).checkpoint(JourneyStateProjection.name) == firstBatch.last!.checkpoint
            )
            var expected: [String: JourneyState] = [:]
            for event in firstBatch {
                let id = String(event.streamName.rawValue.dropFirst("journey-".count))
                expected[id] = Journey.evolve(
                    expected[id] ?? Journey.initialState,
                    try JourneyEvent(type: event.type, data: Data(event.data.text.utf8)))
            }
            let projectedIDs = try await db.owner.query("SELECT journey_id FROM journey_state").map {
                try $0.decode(0, as: String.self)
            }
            #expect(Set(projectedIDs) == Set(expected.keys))
            for (id, state) in expected {
                #expect(try await projectedState(db, JourneyID(id)) == state)
            }
            // Restart: the rest is applied once, from the committed checkpoint.
            let resumed = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 3))
            #expect(try await resumed.catchUp() == total - 3)
            let repository = JourneyCommandRunner(database: store.client)
            for id in ids {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
        }
    }

    @Test func killedAfterPartAndRestartedGivesTheSameRowsAsOneRun() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 8)
            let total = try await db.waitUntilReadable()
            let first = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 4))
            #expect(try await first.runBatch(limit: 5) == .applied(5))
            #expect(try await first.runBatch(limit: 4) == .applied(4))
            // "Killed": a fresh runner resumes from the stored checkpoint.
            let second = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 4))
            #expect(try await second.catchUp() == total - 9)
            let resumedRows = try await snapshotRows(db.owner)
            try await ProjectionRebuilder(client: db.owner).rebuild()
            #expect(try await snapshotRows(db.owner) == resumedRows)
        }
    }

    @Test func onlyOneRunnerAppliesAtATime() async throws {
        try await TestDatabase.with { db in
            let ids = try await seedJourneys(db, count: 12)
            let total = try await db.waitUntilReadable()
            // A runner holding the checkpoint row (simulated by another session) excludes this one.
            let holder = try PostgresConnection.connect(db.owner.database)
            try holder.execute(unsafeSQL: "BEGIN")
            try holder.query("SELECT 1 FROM projection_checkpoints WHERE name = 'journey_state' FOR UPDATE")
            let runner = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 5))
            #expect(try await runner.runBatch() == .busy)
            #expect(try await runner.catchUp() == 0)
            try holder.execute(unsafeSQL: "COMMIT")
            // Two runners racing: every event is applied exactly once in total.
            let other = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 5))
            async let a = runner.catchUp()
            async let b = other.catchUp()
            var applied = try await a + b
            applied += try await runner.catchUp() + other.catchUp()
            #expect(applied == total)
            let repository = JourneyCommandRunner(database: db.app)
            for id in ids {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
        }
    }

    @Test func runFollowsNewAppendsUntilCancelled() async throws {
        try await TestDatabase.with { db in
            let runner = ProjectionRunner(client: db.owner, configuration: .init(batchSize: 50, pollInterval: 5))
            let task = Task { try await runner.run() }
            defer { task.cancel() }
            // Listening: the appends below wake it (its poll is 5 s away).
            try await db.waitForListeners(on: EventStore.notificationChannel)
            let ids = try await seedJourneys(db, count: 3, tag: "live")
            let repository = JourneyCommandRunner(database: db.app)
            try await waitUntil("the live runner projects the new journeys") {
                for id in ids where try await projectedState(db, id) != (try await repository.load(id)).state { return false }
                return true
            }
            task.cancel()
            _ = await task.result
        }
    }

    @Test func twoRunningRunnersDeliverEveryEventExactlyOnceBetweenThem() async throws {
        try await TestDatabase.with { db in
            let delivered = Mutex<[Int64: Int]>([:])
            let hook: @Sendable (RecordedEvent) throws -> Void = { event in
                delivered.withLock { $0[event.position, default: 0] += 1 }
            }
            let runners = (0..<2).map { _ in
                ProjectionRunner(client: db.owner, configuration: .init(batchSize: 3, pollInterval: 0.05, afterEachEvent: hook))
            }
            let tasks = runners.map { runner in Task { try await runner.run() } }
            let ids = try await seedJourneys(db, count: 10, tag: "race")
            let total = try await db.waitUntilReadable()
            try await waitUntil("the projection has no lag") {
                try await ProjectionStatus.read(client: db.app).first?.lagEvents == 0
            }
            tasks.forEach { $0.cancel() }
            for task in tasks { _ = await task.result }
            let counts = delivered.withLock { $0 }
            #expect(counts.count == total)
            #expect(counts.values.allSatisfy { $0 == 1 })
            let repository = JourneyCommandRunner(database: db.app)
            for id in ids {
                #expect(try await projectedState(db, id) == (try await repository.load(id)).state)
            }
        }
    }

    /// A projection other than journey_state: its own checkpoint, the same follower.
    final class Counting: Projection {
        let seen = Mutex<[Int64]>([])
        var name: String { "counting" }
        func apply(_ events: [RecordedEvent], on connection: PostgresConnection) throws {
            seen.withLock { $0 += events.map(\.position) }
        }
    }

    @Test func anyProjectionRunsWithItsOwnCheckpoint() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 4)
            let total = try await db.waitUntilReadable()
            let counting = Counting()
            let runner = ProjectionRunner(client: db.owner, projection: counting, configuration: .init(batchSize: 5))
            #expect(runner.name == "counting")
            #expect(try await runner.catchUp() == total)
            let all = try await EventStore(client: db.app).readAll(after: .start, limit: 10_000)
            #expect(counting.seen.withLock { $0 } == all.map(\.position))
            let checkpoints = CheckpointStore(client: db.app)
            #expect(try await checkpoints.checkpoint("counting") == all.last?.checkpoint)
            #expect(try await checkpoints.checkpoint(JourneyStateProjection.name) == .start, "journey_state untouched")
            #expect(try await db.app.query("SELECT count(*) FROM journey_state").first!.decode(0, as: Int.self) == 0)
        }
    }

    @Test func statusReportsLagThenZero() async throws {
        try await TestDatabase.with { db in
            try await seedJourneys(db, count: 6)
            let total = try await db.waitUntilReadable()
            let before = try await waitFor("a lag in seconds behind the newest event") {
                try await ProjectionStatus.read(name: "journey_state", client: db.app).flatMap { $0.lagSeconds > 0 ? $0 : nil }
            }
            #expect(before.checkpoint == .start)
            #expect(before.lagEvents == total)
            try await ProjectionRunner(client: db.owner).catchUp()
            let after = try #require(try await ProjectionStatus.read(client: db.app).first)
            #expect(after.lagEvents == 0)
            #expect(after.lagSeconds == 0)
            #expect(after.checkpoint == (try await CheckpointStore(client: db.app).checkpoint(JourneyStateProjection.name)))
            #expect(after.checkpoint != .start)
        }
    }
}
