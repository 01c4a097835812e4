import Foundation
import HTTPServer
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Testing
import UnicoEmulator

/// Only final answers are remembered under an Idempotency-Key: a retryable one (429, 502, …)
/// releases the key, and a retry answers from the journey it started, never a second journey.
@Suite(.serialized) struct RetryableAnswerTests {
    static func faults(_ route: FaultScript.RouteFaults) -> FaultScript {
        FaultScript(routes: [FaultScript.Route.createProcess.rawValue: route])
    }

    func keyState(_ h: JourneyHarness, _ key: String) async throws -> String? {
        let rows = try await h.database.owner.query("SELECT state FROM idempotency_keys WHERE key = \(key)")
        return try rows.first?.decode(0, as: String.self)
    }

    @Test func aRateLimitedStartRetriedAfterUnicoRecoversGets201ForTheSameJourney() async throws {
        try await withJourneys(faults: Self.faults(.init(rateLimitRate: 1, retryAfterSeconds: 1))) { h in
            let first = try await h.start(key: "limited")
            #expect(first.status == 429)
            #expect(first.code == "unico_rate_limited")
            #expect(first.headers["retry-after"] == "1")
            let journeyID = try #require(first["journeyId"] as? String)
            #expect(try await keyState(h, "limited") == "released")

            h.emulator.faultPlan.replace(.none)
            let retried = try await h.start(key: "limited")
            #expect(retried.status == 201)
            #expect(retried["journeyId"] as? String == journeyID)
            #expect(retried["webAppToken"] is String)
            #expect(retried["clientToken"] is String)
            #expect(try await keyState(h, "limited") == "completed")
            let replayed = try await h.start(key: "limited")
            #expect(replayed.status == 201)
            #expect(replayed.body == retried.body)
            #expect(replayed.headers["idempotent-replayed"] == "true")
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func aStartThatGot502IsRetriedIntoTheSameJourney() async throws {
        try await withJourneys(faults: Self.faults(.init(serverErrorRate: 1))) { h in
            let first = try await h.start(key: "outage")
            #expect(first.status == 502)
            #expect(first.code == "unico_unavailable")
            let journeyID = try #require(first["journeyId"] as? String)
            // Still failing: answered again from the journey (not replayed), with its id.
            let again = try await h.start(key: "outage")
            #expect(again.status == 502)
            #expect(again["journeyId"] as? String == journeyID)
            #expect(again.headers["idempotent-replayed"] == "true")

            h.emulator.faultPlan.replace(.none)
            let retried = try await h.start(key: "outage")
            #expect(retried.status == 201)
            #expect(retried["journeyId"] as? String == journeyID)
            #expect(try await h.journeyCount() == 1)
            #expect(try await keyState(h, "outage") == "completed")
        }
    }

    @Test func aRetryableFailureWithoutAKeyStillNamesTheJourney() async throws {
        try await withJourneys(faults: Self.faults(.init(rateLimitRate: 1, retryAfterSeconds: 1))) { h in
            let answer = try await h.start()
            #expect(answer.status == 429)
            let journeyID = try #require(answer["journeyId"] as? String)
            let token = try await h.send("POST", "/v1/journeys/\(journeyID)/token", bearer: h.writer)
            #expect(token.status == 429)
            #expect(token["journeyId"] as? String == journeyID)
        }
    }

    @Test func aValidationFailureIsAnsweredTheSameOnEveryRetryAndStartsNothing() async throws {
        try await withJourneys { h in
            let invalid = JourneyHarness.startBody {
                $0["subject"] = ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678900"]
            }
            let first = try await h.start(invalid, key: "bad-cpf")
            #expect(first.status == 422)
            #expect(first["field"] as? String == "subject.documentNumber")
            let second = try await h.start(invalid, key: "bad-cpf")
            #expect(second.status == 422)
            #expect(second.body == first.body)
            #expect(try await h.journeyCount() == 0)
            #expect(try await keyState(h, "bad-cpf") == nil)
        }
    }
}
