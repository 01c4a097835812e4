import Foundation
import JourneyDomain
import Postgres
import Testing
import Workers

@Suite(.serialized) struct ClaimTests {
    /// Inserts `count` due rows for journeys without events (each performs as `stale`).
    static func insertDue(_ h: WorkersHarness, count: Int, dueAt: Date) async throws {
        try await h.database.owner.query(
            """
            INSERT INTO journey_state (journey_id, status, current_attempt, next_due_at, next_due_kind, version,
                                       updated_position, state)
            SELECT 'synthetic-' || g, 'tokenIssued', 1, \(dueAt), 'expireToken', 3, g, '{}'::jsonb
            FROM generate_series(1, \(count)) g
            """)
    }

    @Test func severalWorkersOnSeparatePoolsClaimEachDueItemExactlyOnce() async throws {
        try await withWorkers { h in
            let count = 3000
            try await Self.insertDue(h, count: count, dueAt: h.now().addingTimeInterval(-1))
            var pools: [PostgresClient] = []
            var workers: [WorkerService] = []
            for index in 0..<3 {
                let pool = try PostgresClient(url: h.database.appURL, configuration: .init(maxConnections: 4))
                pools.append(pool)
                workers.append(
                    try h.worker(
                        WorkerService.Configuration(
                            pollInterval: .milliseconds(5), batchSize: 40, concurrency: 4, workerID: "claimer-\(index)"),
                        database: pool))
            }
            defer { pools.forEach { $0.close() } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workers {
                    group.addTask {
                        // Until every item is done (bounded: each poll either claims or finds all done).
                        for _ in 0..<10_000 {
                            if try await worker.runOnce() > 0 { continue }
                            let done = try await h.database.app.query(
                                "SELECT count(*)::int FROM work_leases WHERE done_at IS NOT NULL")
                            if try done.first?.decode(0, as: Int.self) == count { return }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let claimed = workers.map { $0.statistics.claimed }
            #expect(claimed.reduce(0, +) == count)
            #expect(claimed.allSatisfy { $0 > 0 })
            let rows = try await h.database.owner.query(
                """
                SELECT count(*)::int, count(*) FILTER (WHERE tries = 1)::int, count(*) FILTER (WHERE done_at IS NOT NULL)::int,
                       count(DISTINCT journey_id)::int
                FROM work_leases
                """)
            let row = try #require(rows.first)
            #expect(try row.decode(0, as: Int.self) == count)
            #expect(try row.decode(1, as: Int.self) == count)
            #expect(try row.decode(2, as: Int.self) == count)
            #expect(try row.decode(3, as: Int.self) == count)
        }
    }

    /// Items due at one instant, seeded while `work_leases` looks empty to the planner: each seed
    /// copies the next items once, whatever plan the probe of the queue gets.
    @Test func itemsDueAtOneInstantAreSeededOnceEach() async throws {
        try await withWorkers { h in
            try await Self.insertDue(h, count: 1200, dueAt: h.now().addingTimeInterval(-1))
            try await h.database.owner.withConnection { try $0.execute(unsafeSQL: "VACUUM ANALYZE work_leases") }
            let queue = WorkQueue(database: h.database.app)
            let now = h.now()
            var seeded: [Int] = []
            for _ in 0..<4 { seeded.append(try await queue.seed(now: now, limit: 400)) }
            #expect(seeded == [400, 400, 400, 0])
            let rows = try await h.database.owner.query("SELECT count(*)::int, count(DISTINCT journey_id)::int FROM work_leases")
            #expect(try rows.first?.decode(0, as: Int.self) == 1200)
            #expect(try rows.first?.decode(1, as: Int.self) == 1200)
        }
    }

    @Test func seedsCarryOnWhereTheLastStoppedAndStillFindItemsBehindIt() async throws {
        try await withWorkers { h in
            let burst = h.now().addingTimeInterval(-1)
            try await Self.insertDue(h, count: 900, dueAt: burst)
            let queue = WorkQueue(database: h.database.app)
            let now = h.now()
            #expect(try await queue.seed(now: now, limit: 400) == 400)
            // Items that sort before where the seed stopped: due earlier, and due at the same
            // instant with ids before the seeded ones.
            try await h.database.owner.query(
                """
                INSERT INTO journey_state (journey_id, status, current_attempt, next_due_at, next_due_kind, version,
                                           updated_position, state)
                SELECT 'behind-' || g, 'tokenIssued', 1, \(burst.addingTimeInterval(-4))::timestamptz, 'expireToken', 3, g, '{}'::jsonb
                FROM generate_series(1, 7) g
                UNION ALL
                SELECT 'a-tie-' || g, 'tokenIssued', 1, \(burst)::timestamptz, 'expireToken', 3, g, '{}'::jsonb
                FROM generate_series(1, 5) g
                """)
            var seeded: [Int] = []
            for _ in 0..<5 { seeded.append(try await queue.seed(now: now, limit: 400)) }
            // 400 more after the first seed's last item, the remaining 100 (a seed that is not
            // full, so the next starts from the top), the 12 behind, then nothing.
            #expect(seeded == [400, 100, 12, 0, 0])
            let rows = try await h.database.owner.query("SELECT count(*)::int, count(DISTINCT journey_id)::int FROM work_leases")
            #expect(try rows.first?.decode(0, as: Int.self) == 912)
            #expect(try rows.first?.decode(1, as: Int.self) == 912)
        }
    }

    @Test func anExpiredLeaseIsRescuedButACompletionIsNeverUndone() async throws {
        try await withWorkers { h in
            try await Self.insertDue(h, count: 2, dueAt: h.now().addingTimeInterval(-1))
            let queue = WorkQueue(database: h.database.app)
            let now = h.now()
            try await queue.seed(now: now, limit: 10)
            let first = try await queue.claim(worker: "a", now: now, leaseUntil: now.addingTimeInterval(30), limit: 10)
            #expect(first.count == 2)
            #expect(try await queue.claim(worker: "b", now: now, leaseUntil: now.addingTimeInterval(30), limit: 10).isEmpty)

            // Worker a stalls past its lease; b rescues both items.
            let later = now.addingTimeInterval(31)
            let rescued = try await queue.claim(worker: "b", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10)
            #expect(Set(rescued.map(\.journeyID)) == Set(first.map(\.journeyID)))
            #expect(rescued.allSatisfy { $0.tries == 2 })
            // a finishes one after all: done for good; a cannot postpone the other one any more.
            #expect(try await queue.complete(first[0], outcome: "expired", now: later))
            #expect(try await queue.release(first[1], worker: "a", until: later, outcome: "x") == false)
            // b's completion of the same item changes nothing, and no claim takes it again.
            #expect(
                try await queue.complete(
                    rescued.first { $0.journeyID == first[0].journeyID }!, outcome: "stale",
                    now: later) == false)
            let much = later.addingTimeInterval(3600)
            let again = try await queue.claim(worker: "c", now: much, leaseUntil: much.addingTimeInterval(30), limit: 10)
            #expect(again.map(\.journeyID) == [first[1].journeyID])
            let outcome = try await h.database.owner.query(
                "SELECT outcome FROM work_leases WHERE journey_id = \(first[0].journeyID.rawValue)")
            #expect(try outcome.first?.decode(0, as: String.self) == "expired")
        }
    }

    @Test func aRescueRacingACompletionSkipsTheItemTheCompletionHolds() async throws {
        try await withWorkers { h in
            try await Self.insertDue(h, count: 1, dueAt: h.now().addingTimeInterval(-1))
            let queue = WorkQueue(database: h.database.app)
            let now = h.now()
            try await queue.seed(now: now, limit: 10)
            let item = try #require(
                try await queue.claim(
                    worker: "a", now: now, leaseUntil: now.addingTimeInterval(1),
                    limit: 10
                ).first)
            let later = now.addingTimeInterval(5)
            // River #1302's interleaving: the completion's transaction is open when the rescuer selects.
            let completion = try PostgresConnection.connect(try PostgresConfiguration(h.database.appURL))
            try completion.execute(unsafeSQL: "BEGIN")
            try completion.query(
                """
                UPDATE work_leases SET done_at = \(later), outcome = 'expired'
                WHERE journey_id = \(item.journeyID.rawValue) AND done_at IS NULL
                """)
            let during = try await queue.claim(worker: "b", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10)
            #expect(during.isEmpty)
            try completion.execute(unsafeSQL: "COMMIT")
            let after = try await queue.claim(worker: "b", now: later, leaseUntil: later.addingTimeInterval(30), limit: 10)
            #expect(after.isEmpty)
            let rows = try await h.database.owner.query("SELECT outcome, tries FROM work_leases")
            #expect(try rows.first?.decode(0, as: String.self) == "expired")
            #expect(try rows.first?.decode(1, as: Int.self) == 1)
        }
    }

    @Test func theBacklogDrainsWhileAnotherTransactionHoldsItsSnapshot() async throws {
        try await withWorkers { h in
            let count = 2000
            try await Self.insertDue(h, count: count, dueAt: h.now().addingTimeInterval(-1))
            // A long transaction pins the MVCC horizon: nothing the workers update can be vacuumed.
            let holder = try PostgresConnection.connect(try PostgresConfiguration(h.database.ownerURL))
            try holder.execute(unsafeSQL: "BEGIN ISOLATION LEVEL REPEATABLE READ")
            try holder.query("SELECT count(*) FROM journey_state")
            let worker = try h.worker(WorkerService.Configuration(batchSize: 100, concurrency: 4, workerID: "soak"))
            var polls = 0
            while try await worker.runOnce() > 0, polls < 1000 { polls += 1 }
            try holder.execute(unsafeSQL: "COMMIT")
            let rows = try await h.database.owner.query(
                """
                SELECT count(*) FILTER (WHERE done_at IS NOT NULL)::int, count(*) FILTER (WHERE tries = 1)::int
                FROM work_leases
                """)
            #expect(try rows.first?.decode(0, as: Int.self) == count)
            #expect(try rows.first?.decode(1, as: Int.self) == count)
            #expect(worker.statistics.claimed == count)
        }
    }
}
