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
            UPDATE idempotency_keys SET state = 'in_progress', outcome = NULL,
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
}
