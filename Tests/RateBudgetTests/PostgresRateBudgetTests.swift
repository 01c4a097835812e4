import Foundation
import HumanTokenAPI
import JourneyTesting
import Postgres
import RateBudget
import Synchronization
import Testing

/// The tenant's Unico rate shared through `unico_rate_buckets`: each budget stands for one process.
@Suite struct PostgresRateBudgetTests {
    func budget(_ db: TestDatabase, bucket: String = "UAT:acme", rate: Double, reserve: Double? = nil) -> PostgresRateBudget {
        PostgresRateBudget(client: db.app, configuration: .init(bucket: bucket, rate: rate, liveReserve: reserve))
    }

    /// The tokens `bucket` holds now: its row, refilled at `rate` since its last update (nil
    /// before its first use: full).
    static func tokens(_ db: TestDatabase, _ bucket: String, rate: Double) async throws -> Double? {
        try await db.owner.query(
            """
            SELECT (tokens + extract(epoch FROM clock_timestamp() - updated_at)::float8 * \(rate)::float8)::float8
            FROM unico_rate_buckets WHERE bucket = \(bucket)
            """
        ).first?.decode(0, as: Double.self)
    }

    @Test func twoProcessesShareOneBurstAndThenWaitForTheRate() async throws {
        try await TestDatabase.with { db in
            let first = budget(db, rate: 2)
            let second = budget(db, rate: 2)
            var taken = 0
            for process in [first, second, first, second] where await process.take(.live) == nil {
                taken += 1
            }
            #expect(taken == 2)  // the burst (2 tokens) for both processes together, not 2 each
            let wait = try #require(await second.take(.live))
            #expect(wait > .zero && wait <= .milliseconds(500))  // at most one token's time at 2/s
            let other = budget(db, bucket: "PROD:acme", rate: 2)
            #expect(await other.take(.live) == nil)  // another environment or tenant has its own bucket
            #expect(first.failures == 0 && second.failures == 0)
        }
    }

    @Test func backgroundCallsLeaveTheReserveToLiveStarts() async throws {
        try await TestDatabase.with { db in
            // A burst of 2 with 1 reserved: a background call needs a full bucket, a live one any token.
            let worker = budget(db, rate: 2, reserve: 1)
            let service = budget(db, rate: 2, reserve: 1)
            #expect(await worker.take(.background) == nil)
            #expect(await worker.take(.background) != nil)
            #expect(await service.take(.live) == nil)
            #expect(await service.take(.live) != nil)
        }
    }

    @Test func liveStartsOfOneProcessGetTokensWithinTheWaitWhileAnotherDrainsABacklog() async throws {
        try await TestDatabase.with { db in
            // Two processes of one tenant (5/s, burst 5, 1.5 reserved for live calls) whose own
            // limiters would allow far more: the worker keeps four background calls waiting at all
            // times, like a backlog of retries; the service starts a journey each time the backlog
            // has taken another token.
            let worker = HumanTokenRateLimiter(requestsPerSecond: 100, shared: budget(db, rate: 5))
            let service = HumanTokenRateLimiter(requestsPerSecond: 100, shared: budget(db, rate: 5))
            try await service.acquire(.live)  // connections open before the clock runs: a busy machine is slow at that
            let taken = Counter()
            let waits = try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do {
                            while true {
                                try await worker.acquire(.background)
                                taken.add()
                            }
                        } catch {}
                    }
                }
                try await waitUntil("the backlog has taken the burst down to the reserve") {
                    try await Self.tokens(db, "UAT:acme", rate: 5) ?? 5 < 2.5
                }
                var waits: [Duration] = []
                for _ in 0..<8 {
                    let before = taken.value
                    try await waitUntil("the backlog takes another token") { taken.value > before }
                    let asked = ContinuousClock.now
                    try await service.acquire(.live, before: asked + .seconds(2))
                    waits.append(ContinuousClock.now - asked)
                }
                group.cancelAll()
                return waits
            }
            let background = taken.value
            print(
                "live waits while another process drains a backlog: \(waits.map { $0.formatted(.units(allowed: [.milliseconds])) }), background calls: \(background)"
            )
            #expect(waits.count == 8)
            // Each within the 2 s wait (acquire would have thrown rate_limited otherwise); typically
            // a few milliseconds, the reserve being there.
            #expect(waits.allSatisfy { $0 < .seconds(2) }, "\(waits)")
            #expect(background >= 5, "the backlog drained the rest of the rate")
        }
    }

    @Test func a429PausesEveryProcess() async throws {
        try await TestDatabase.with { db in
            let first = budget(db, rate: 10)
            let second = budget(db, rate: 10)
            #expect(await first.take(.live) == nil)
            await first.pause(for: 2)
            let wait = try #require(await second.take(.live))
            #expect(wait > .seconds(1) && wait <= .seconds(2))  // the rest of the pause, not a token's 0.1 s
        }
    }

    @Test func theLimiterWaitsForTheSharedBudgetAfterItsOwn() async throws {
        try await TestDatabase.with { db in
            // Two processes whose own limiters would allow 100/s each, sharing a tenant rate of 5/s.
            let limiters = (0..<2).map { _ in HumanTokenRateLimiter(requestsPerSecond: 100, shared: budget(db, rate: 5)) }
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<9 {
                    group.addTask { try await limiters[index % 2].acquire(.live) }
                }
                try await group.waitForAll()
            }
            // 5 at once, then 4 more at 5/s: at least 0.8 s for the nine calls.
            #expect(ContinuousClock.now - started >= .milliseconds(750))
        }
    }

    @Test func anUnreachableDatabaseFailsOpenAndIsCounted() async throws {
        let client = try PostgresClient(
            url: "postgresql://journeys_app@127.0.0.1:1/none?connect_timeout=1",
            configuration: .init(maxConnections: 1))
        defer { client.close() }
        let budget = PostgresRateBudget(client: client, configuration: .init(bucket: "UAT:acme", rate: 1))
        #expect(await budget.take(.live) == nil)
        await budget.pause(for: 1)
        #expect(budget.failures == 2)
    }

    @Test func theApplicationRoleOnlyCallsTheFunctions() async throws {
        try await TestDatabase.with { db in
            #expect(await budget(db, rate: 1).take(.live) == nil)
            await #expect(throws: PostgresError.self) {
                try await db.app.query("UPDATE unico_rate_buckets SET tokens = 100")
            }
            await #expect(throws: PostgresError.self) {
                try await db.app.query("SELECT take_unico_token('UAT:acme', 0, 0)")
            }
        }
    }
}

/// Journeys tenants sharing the deployment's Unico account (issue 23): each has a share of it.
@Suite struct UnicoTenantShareTests {
    @Test func aSecondTenantIsNotStarvedWhileAFirstFloods() async throws {
        try await TestDatabase.with { db in
            // One process's limiter for the deployment's account (2/s, burst 2), tenants sharing it half each.
            let budget = PostgresRateBudget(client: db.app, configuration: .init(bucket: "UAT:acme", rate: 2, tenantShare: 0.5))
            let deployment = HumanTokenRateLimiter(requestsPerSecond: 100, shared: budget)
            let flooding = deployment.forCaller("tenant-a")
            let other = deployment.forCaller("tenant-b")
            #expect(flooding !== other && deployment.forCaller("tenant-a") === flooding)
            let taken = Counter()
            let waits = try await withThrowingTaskGroup(of: Void.self) { group in
                // Tenant A keeps twelve live calls waiting at all times: alone on the bucket, B would
                // queue behind them in the database and wait far beyond a live call's 2 s.
                for _ in 0..<12 {
                    group.addTask {
                        do {
                            while true {
                                try await flooding.acquire(.live)
                                taken.add()
                            }
                        } catch {}
                    }
                }
                try await waitUntil("A has emptied the bucket (its burst of 2)") { taken.value >= 2 }
                var waits: [Duration] = []
                for _ in 0..<4 {
                    // B within its share (1/s): it asks once its share holds a token again.
                    try await waitUntil("B's share refilled") {
                        try await PostgresRateBudgetTests.tokens(db, "UAT:acme/tenant:tenant-b", rate: 1) ?? 1 >= 1
                    }
                    let asked = ContinuousClock.now
                    try await other.acquire(.live, before: asked + .seconds(2))
                    waits.append(ContinuousClock.now - asked)
                }
                group.cancelAll()
                return waits
            }
            let flooded = taken.value
            print("tenant B's live waits while tenant A floods: \(waits), A's calls: \(flooded)")
            #expect(waits.count == 4 && waits.allSatisfy { $0 < .seconds(2) }, "\(waits)")
            #expect(flooded >= 4, "A still gets what B leaves")
        }
    }

    @Test func aTenantAloneStillGetsTheWholeRate() async throws {
        try await TestDatabase.with { db in
            let budget = PostgresRateBudget(client: db.app, configuration: .init(bucket: "UAT:acme", rate: 10, tenantShare: 0.5))
            let alone = HumanTokenRateLimiter(requestsPerSecond: 100, shared: budget).forCaller("tenant-a")
            let started = ContinuousClock.now
            for _ in 0..<25 { try await alone.acquire(.background) }
            // Burst 5 (its share), then the whole 10/s: about 2 s, far below the 5 s of its share alone.
            #expect(ContinuousClock.now - started < .seconds(4))
        }
    }
}

/// A count the tasks of a test share.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    func add() { atomic.add(1, ordering: .relaxed) }
    var value: Int { atomic.load(ordering: .relaxed) }
}
