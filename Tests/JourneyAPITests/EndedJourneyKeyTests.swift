import Foundation
import JourneyDomain
import JourneyTesting
import Testing
import UnicoEmulator

/// A client that follows the contract (retry a retryable answer with the same Idempotency-Key)
/// always reaches a final answer, also when the journey its key started has ended.
@Suite struct EndedJourneyKeyTests {
    @Test func aRetryAfterTheJourneyEndedGetsAFinalAnswer() async throws {
        var options = TestStack.Options(
            time: .system,
            faults: FaultScript(
                routes: [FaultScript.Route.createProcess.rawValue: .init(serverErrorRate: 1)]))
        var policy = RetryPolicy.standard
        policy.maximumAttempts = 1
        options.retryPolicy = policy
        try await TestStack.with(options) { stack in
            let h = JourneyHarness(stack: stack)
            let first = try await h.start(key: "ends")
            #expect(first.status == 502)
            #expect(first["retryable"] as? Bool == true)
            let journeyID = try #require(first["journeyId"] as? String)
            // One attempt allowed, and it failed: the journey was abandoned with the answer.
            #expect(try await h.eventTypes(journeyID).last == "JourneyAbandoned")
            let retry = try await h.start(key: "ends")
            #expect(retry.status == 410, "\(retry.text)")
            #expect(retry.code == "journey_ended")
            #expect(retry["retryable"] as? Bool == false)
            #expect(retry["journeyId"] as? String == journeyID)
            #expect(retry["journeyStatus"] as? String == "abandoned")
            #expect(retry.headers["retry-after"] == nil)
            // The final answer is kept for the key.
            let again = try await h.start(key: "ends")
            #expect(again.status == 410 && again.body == retry.body)
            #expect(try await h.journeyCount() == 1)
            // An ended journey gives no fresh client token either.
            let renewal = try await h.send("POST", "/v1/journeys/\(journeyID)/client-token", bearer: h.writer)
            #expect(renewal.status == 410 && renewal.code == "journey_ended" && renewal["retryable"] as? Bool == false)
        }
    }

    @Test func everyProblemSaysWhetherARetryCanHelp() async throws {
        try await withJourneys { h in
            let invalid = try await h.start(JourneyHarness.startBody { $0["environment"] = "MARS" })
            #expect(invalid.status == 422 && invalid["retryable"] as? Bool == false)
            let missing = try await h.send("GET", "/v1/journeys/\(UUID().uuidString.lowercased())", bearer: h.writer)
            #expect(missing.status == 404 && missing["retryable"] as? Bool == false)
        }
    }
}
