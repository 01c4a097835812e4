import Foundation
import JourneyDomain
import Testing
import Workers

/// A journey's deadline, set at its start, is due work: the workers abandon the journey then.
@Suite(.serialized) struct DeadlineWorkTests {
    @Test func theDueDeadlineAbandonsTheJourneyThroughPostgreSQL() async throws {
        try await withWorkers { h in
            let deadline = Date(timeIntervalSince1970: (h.now().timeIntervalSince1970 + 200).rounded(.down))
            let stamp = Date.ISO8601FormatStyle().format(deadline)
            let answer = try await h.send(
                "POST", "/v1/journeys",
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                    "maximumAttempts": 3, "deadline": stamp,
                ])
            #expect(answer.status == 201, "\(answer.text)")
            let id = JourneyID(try #require(answer["journeyId"] as? String))
            #expect(try await h.state(id).retryPolicy.maximumAttempts == 3)
            let worker = try h.worker()

            // The token expires first (five minutes would pass the deadline: the deadline is due first).
            h.clock.set(deadline.addingTimeInterval(-1))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .tokenIssued)
            #expect(try await h.state(id).nextDue == DueWork(kind: .abandonAtDeadline, attempt: 1, at: deadline))

            h.clock.set(deadline.addingTimeInterval(1))
            #expect(try await h.poll(worker) == 1)
            let abandoned = try await h.state(id)
            #expect(abandoned.status == .abandoned && abandoned.abandonReason?.kind == .deadlineReached)
            #expect(try await h.eventTypes(id).last == "JourneyAbandoned")
            #expect(abandoned.nextDue == nil)
            // The app asking for a token now is told the journey ended.
            let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token")
            #expect(token.status == 409 && token["abandonReason"] as? String == "deadlineReached", "\(token.text)")
            #expect(h.emulator.processes().count == 1)
        }
    }
}
