import Foundation
import JourneyTesting
import Testing

/// A replay of a start is answered by its `Idempotency-Key` before the body is validated again
/// (issue 23): a `deadline` that was in the future at the start and has passed since does not
/// turn the faithful replay into a 422.
@Suite struct ReplayAfterDeadlineTests {
    static func body(deadline: Date, reference: String = "order-42") -> [String: Any] {
        [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "clientReference": reference,
            "deadline": Date.ISO8601FormatStyle().format(deadline),
        ]
    }

    @Test func aReplayAfterTheDeadlinePassedGetsTheStoredAnswer() async throws {
        try await TestStack.with(TestStack.Options(time: .manual)) { stack in
            let deadline = stack.now().addingTimeInterval(600)
            let key = ["Idempotency-Key": "start-with-deadline"]
            let first = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer, headers: key,
                json: Self.body(deadline: deadline))
            #expect(first.status == 201, "\(first.text)")

            stack.clock.advance(by: 1200)
            let replay = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer, headers: key,
                json: Self.body(deadline: deadline))
            #expect(replay.status == 201, "the original answer, not a 422 about the deadline: \(replay.text)")
            #expect(replay.headers["idempotent-replayed"] == "true")
            #expect(replay.body == first.body)

            // Another body under the same key is still the mismatch, even with a past deadline.
            let other = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer, headers: key,
                json: Self.body(deadline: deadline, reference: "order-43"))
            #expect(other.status == 422 && other.code == "idempotency_key_reused", "\(other.text)")

            // A new key with a past deadline is refused naming the field, and starts nothing.
            let fresh = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer, headers: ["Idempotency-Key": "new"],
                json: Self.body(deadline: deadline))
            #expect(fresh.status == 422 && fresh.code == "validation_failed" && fresh.field == "deadline", "\(fresh.text)")
            let journeys = try await stack.database.owner.query(
                "SELECT count(DISTINCT stream_name)::int FROM events WHERE stream_name LIKE 'journey-%'")
            #expect(try journeys.first?.decode(0, as: Int.self) == 1)
        }
    }
}
