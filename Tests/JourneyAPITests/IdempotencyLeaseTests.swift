import Foundation
import HTTPServer
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Synchronization
import Testing
import UnicoEmulator

/// The request holding an Idempotency-Key renews a short lease; when its owner dies, a retry
/// takes the key over as soon as the lease lapses and answers from the journey.
@Suite(.serialized) struct IdempotencyLeaseTests {
    /// What a `kill -9` between recording the start and storing the answer leaves: the key in
    /// progress under a lease its dead owner renewed `leaseLeft` before it lapses.
    static func orphan(_ h: JourneyHarness, _ key: String, leaseLeft seconds: Double) async throws {
        _ = try await h.database.owner.query(
            """
            UPDATE idempotency_keys SET state = 'in_progress', response_status = NULL, response_body = NULL,
                completed_at = NULL, owner = gen_random_uuid(),
                lease_until = clock_timestamp() + make_interval(secs => \(seconds))
            WHERE key = \(key)
            """)
    }

    @Test func anOrphanedKeyIsTakenOverWhenItsLeaseLapsesAndAnsweredFromTheJourney() async throws {
        try await withJourneys { h in
            let first = try await h.start(key: "orphan")
            #expect(first.status == 201)
            let journeyID = try #require(first["journeyId"] as? String)
            try await Self.orphan(h, "orphan", leaseLeft: 60)

            // A retry while the lease is live: 409 with Retry-After (after the idempotency wait).
            let waiting = try await h.start(key: "orphan")
            #expect(waiting.status == 409)
            #expect(waiting.code == "idempotency_key_in_progress")
            #expect(waiting.headers["retry-after"] == "1")
            #expect(waiting["journeyId"] as? String == journeyID)
            // The dead owner renews the lease no more: once it lapsed, the next retry takes the key
            // over and answers from the journey.
            try await Self.orphan(h, "orphan", leaseLeft: -0.001)
            let recovered = try await h.start(key: "orphan")
            #expect(recovered.status == 201)
            #expect(recovered["journeyId"] as? String == journeyID)
            #expect(recovered["webAppToken"] as? String == first["webAppToken"] as? String)
            #expect(recovered.headers["idempotent-replayed"] == "true")
            #expect(try await h.journeyCount() == 1)
            let replayed = try await h.start(key: "orphan")
            #expect(replayed.body == recovered.body)
        }
    }

    @Test func aKeyWhoseLeaseAlreadyLapsedIsAnsweredAtOnce() async throws {
        try await withJourneys { h in
            let first = try await h.start(key: "lapsed")
            let journeyID = try #require(first["journeyId"] as? String)
            try await Self.orphan(h, "lapsed", leaseLeft: -0.1)
            let started = ContinuousClock.now
            let retried = try await h.start(key: "lapsed")
            #expect(retried.status == 201)
            #expect(retried["journeyId"] as? String == journeyID)
            #expect(ContinuousClock.now - started < .seconds(1.5))
        }
    }

    @Test func aRetryAdoptsTheProcessWhoseCreateProcessAnswerWasLost() async throws {
        // Create Process answers after the client's 5 s timeout: the process exists at Unico,
        // the journey's intent stays open (no answer), and the key is released with a 502.
        let slow = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(5_600))])
        try await withJourneys(faults: slow) { h in
            let first = try await h.start(key: "lost")
            #expect(first.status == 502)
            let journeyID = try #require(first["journeyId"] as? String)
            h.emulator.faultPlan.replace(.none)
            try await waitUntil("the emulator finishes creating the process") { h.emulator.processes().count == 1 }
            let started = ContinuousClock.now
            let retried = try await h.start(key: "lost")
            print("idempotency resume: the lost process adopted in \(ContinuousClock.now - started)")
            #expect(retried.status == 201)
            #expect(retried["journeyId"] as? String == journeyID)
            #expect(retried["attempt"] as? Int == 1)
            #expect(retried["webAppToken"] is String)
            #expect(h.emulator.processes().count == 1)  // adopted, not created again
            #expect(try await h.journeyCount() == 1)
            #expect(try await h.eventTypes(journeyID).contains("ProcessCreated"))
        }
    }

    @Test func aLiveOwnerRenewsItsLeaseAndKeepsTheKey() async throws {
        try await TestDatabase.with { db in
            var configuration = IdempotencyStore.Configuration()
            (configuration.lease, configuration.renewEvery) = (.milliseconds(600), .milliseconds(150))
            let store = IdempotencyStore(database: db.app, configuration: configuration)
            let owner = IdempotencyStore.Claim(apiKeyID: UUID(), key: "held", requestHash: Data(repeating: 3, count: 32))
            var retry = owner
            retry.owner = UUID()
            let recoveries = Count()
            let lease = configuration.lease
            let answered = try await store.holding(owner) {
                let claimed = try await db.app.transaction { connection in
                    try IdempotencyStore.claim(owner, journeyID: "j-held", lease: lease, on: connection)
                }
                #expect(claimed)
                // Twice the lease passes while the owner works: its renewals keep the retry out.
                do {
                    _ = try await store.replay(
                        retry, wait: .milliseconds(1200),
                        recover: { _ in
                            recoveries.add()
                            return .text("taken")
                        })
                    Issue.record("the retry took over a live key")
                } catch let problem as Problem {
                    #expect(problem.status == .conflict)
                    #expect(problem.code == "idempotency_key_in_progress")
                }
                return HTTPResponse.text("done", status: .created)
            }
            #expect(answered.status == .created)
            #expect(recoveries.value == 0)
            #expect(try await store.lookup(owner)?.lapsed == false)
        }
    }

    @Test func twoConcurrentRetriesAfterTheLeaseLapsedTakeTheKeyOverOnce() async throws {
        try await TestDatabase.with { db in
            let store = IdempotencyStore(database: db.app)
            let dead = IdempotencyStore.Claim(apiKeyID: UUID(), key: "orphan", requestHash: Data(repeating: 5, count: 32))
            let claimed = try await db.app.transaction { connection in
                try IdempotencyStore.claim(dead, journeyID: "j-1", lease: .zero, on: connection)
            }
            #expect(claimed)
            let recovering = TestGate()
            let recoveries = Count()
            let recover: IdempotencyStore.Recovery = { journeyID in
                recoveries.add()
                await recovering.wait()
                return HTTPResponse.text(journeyID, status: .created)
            }
            let retries = (0..<2).map { _ in
                IdempotencyStore.Claim(apiKeyID: dead.apiKeyID, key: dead.key, requestHash: dead.requestHash, owner: UUID())
            }
            // The first retry takes the key over and recovers until the gate opens; the second, meanwhile,
            // finds the key in progress under the first's new lease.
            let first = Task { try await store.replay(retries[0], wait: .seconds(5), recover: recover) }
            try await waitUntil("the first retry recovers") { recovering.waiting == 1 }
            let refused = await captureError { try await store.replay(retries[1], wait: .zero, recover: recover) } as? Problem
            #expect(refused?.code == "idempotency_key_in_progress")
            recovering.open()
            let answers = [try await first.value, try await store.replay(retries[1], wait: .zero, recover: recover)]
            #expect(recoveries.value == 1)
            #expect(answers.map(\.status) == [.created, .created])
            #expect(answers.allSatisfy { $0.body == Data("j-1".utf8) })
            #expect(try await store.lookup(dead)?.state == .completed)
        }
    }

    @Test func aTakeOverThatGetsARetryableAnswerReleasesTheKeyForTheNextRetry() async throws {
        try await TestDatabase.with { db in
            let store = IdempotencyStore(database: db.app)
            let dead = IdempotencyStore.Claim(apiKeyID: UUID(), key: "k", requestHash: Data(repeating: 9, count: 32))
            let claimed = try await db.app.transaction { connection in
                try IdempotencyStore.claim(dead, journeyID: "j-2", lease: .zero, on: connection)
            }
            #expect(claimed)
            var retry = dead
            retry.owner = UUID()
            let pending = try await store.replay(
                retry, wait: .zero,
                recover: { journeyID in
                    Problem(status: .conflict, code: "process_creation_pending").about(journey: journeyID).response
                })
            #expect(pending.status == .conflict)
            #expect(try await store.lookup(dead)?.state == .released)
            retry.owner = UUID()
            let created = try await store.replay(retry, wait: .zero, recover: { _ in .text("ok", status: .created) })
            #expect(created.status == .created)
            #expect(try await store.lookup(dead)?.state == .completed)
        }
    }
}

/// A counter escaping closures can share.
final class Count: Sendable {
    private let atomic = Atomic<Int>(0)
    func add() { atomic.add(1, ordering: .relaxed) }
    var value: Int { atomic.load(ordering: .relaxed) }
}
