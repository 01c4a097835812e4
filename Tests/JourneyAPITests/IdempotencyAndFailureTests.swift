import Foundation
import JourneyTesting
import Testing
import UnicoEmulator

@Suite(.serialized) struct IdempotencyAndFailureTests {
    @Test func duplicateKeyReturnsTheFirstAnswerAndMakesOneJourney() async throws {
        try await withJourneys { h in
            let first = try await h.start(key: "order-42-start")
            let second = try await h.start(key: "order-42-start")
            #expect(first.status == 201)
            #expect(second.status == 201)
            #expect(second.body == first.body)
            #expect(second.headers["idempotent-replayed"] == "true")
            #expect(try await h.journeyCount() == 1)
            let other = try await h.start(JourneyHarness.startBody { $0["clientReference"] = "order-43" }, key: "order-42-start")
            #expect(other.status == 422)
            #expect(other.code == "idempotency_key_reused")
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func aKeyLeftInProgressByADeadRequestIsAnsweredFromTheJourney() async throws {
        try await withJourneys { h in
            let first = try await h.start(key: "crashed")
            #expect(first.status == 201)
            let journeyID = try #require(first["journeyId"] as? String)
            // What a crash between recording the start and storing the answer leaves behind.
            _ = try await h.database.owner.query(
                """
                UPDATE idempotency_keys SET state = 'in_progress', outcome = NULL,
                    completed_at = NULL, created_at = now() - interval '2 minutes'
                WHERE key = 'crashed'
                """)
            let recovered = try await h.start(key: "crashed")
            #expect(recovered.status == 201)
            #expect(recovered.headers["idempotent-replayed"] == "true")
            #expect(recovered["journeyId"] as? String == journeyID)
            #expect(recovered["webAppToken"] as? String == first["webAppToken"] as? String)
            #expect(recovered["attempt"] as? Int == 1)
            #expect(recovered["clientToken"] is String)
            let again = try await h.start(key: "crashed")
            #expect(again.body == recovered.body)
            #expect(try await h.journeyCount() == 1)
            let rows = try await h.database.owner.query("SELECT state FROM idempotency_keys WHERE key = 'crashed'")
            #expect(try rows.first?.decode(0, as: String.self) == "completed")
        }
    }

    @Test func aHundredConcurrentRequestsWithOneKeyMakeOneJourney() async throws {
        try await withJourneys { h in
            let answers = try await withThrowingTaskGroup(of: JourneyHarness.Answer.self) { group in
                for _ in 0..<100 { group.addTask { try await h.start(key: "burst") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 100)
            // A request that waited longer than the idempotency wait (a loaded machine) is told
            // to retry (409 with Retry-After), as a client would; nothing else is allowed.
            let waiting = answers.filter { $0.status == 409 }
            #expect(waiting.allSatisfy { $0.code == "idempotency_key_in_progress" && $0.headers["retry-after"] != nil })
            var final = answers.filter { $0.status != 409 }
            for _ in waiting {
                final.append(
                    try await waitFor("the key's final answer") {
                        let answer = try await h.start(key: "burst")
                        return answer.status == 409 ? nil : answer
                    })
            }
            #expect(final.count == 100)
            #expect(final.allSatisfy { $0.status == 201 })
            #expect(Set(final.compactMap { $0["journeyId"] as? String }).count == 1)
            #expect(Set(final.map(\.body)).count == 1)
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func unicoServerErrorsAnswer502WithAnAuditableFailedAttempt() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(serverErrorRate: 1)])
        try await withJourneys(faults: faults) { h in
            let answer = try await h.start(key: "fails")
            #expect(answer.status == 502)
            #expect(answer.code == "unico_unavailable")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(try await h.journeyCount() == 1)
            let rows = try await h.database.owner.query("SELECT stream_name FROM events LIMIT 1")
            let id = String(try #require(rows.first).decode(0, as: String.self).dropFirst("journey-".count))
            let types = try await h.eventTypes(id)
            #expect(types.starts(with: ["JourneyStarted", "ProcessCreationRequested", "ProcessCreationFailed", "AttemptFailed"]))
            let replay = try await h.start(key: "fails")
            #expect(replay.status == 502)
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func unicoRateLimitAnswers429WithRetryAfter() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(rateLimitRate: 1, retryAfterSeconds: 2)]
        )
        try await withJourneys(faults: faults) { h in
            let answer = try await h.start()
            #expect(answer.status == 429)
            #expect(answer.code == "unico_rate_limited")
            #expect(answer.headers["retry-after"] == "2")
            let rows = try await h.database.owner.query(
                "SELECT count(*)::int FROM events WHERE event_type = 'ProcessCreationFailed'")
            #expect(try rows.first?.decode(0, as: Int.self) == 1)
        }
    }
}
