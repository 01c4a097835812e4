import Foundation
import Testing

/// A start without a process writes its idempotency key once, answered, in its own transaction:
/// no claim, no lease, and a duplicate replays the stored answer.
@Suite struct StartWithoutProcessKeyTests {
    static func body(_ reference: String = "order-7") -> [String: Any] {
        JourneyHarness.startBody {
            $0["createProcess"] = nil; $0["clientReference"] = reference
        }
    }

    @Test func concurrentDuplicatesMakeOneJourneyAndAllGetItsAnswer() async throws {
        try await withJourneys { h in
            let answers = try await withThrowingTaskGroup(of: JourneyHarness.Answer.self) { group in
                for _ in 0..<40 { group.addTask { try await h.start(Self.body(), key: "signup-7") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == 201 }, "\(answers.map(\.status))")
            #expect(Set(answers.map(\.body)).count == 1)
            #expect(answers.filter { $0.headers["idempotent-replayed"] == "true" }.count == 39)
            #expect(answers.first?["webAppToken"] == nil && answers.first?["clientToken"] is String)
            #expect(try await h.journeyCount() == 1)
            let rows = try await h.database.owner.query(
                """
                SELECT state, lease_until IS NULL FROM idempotency_keys WHERE key = 'signup-7'
                """)
            #expect(try rows.first?.decode(0, as: String.self) == "completed")
            #expect(try rows.first?.decode(1, as: Bool.self) == true)

            let other = try await h.start(Self.body("order-8"), key: "signup-7")
            #expect(other.status == 422 && other.code == "idempotency_key_reused")
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func aKeyFirstUsedByAProcessStartIsNotTakenByAStartWithout() async throws {
        try await withJourneys { h in
            let first = try await h.start(key: "k-1")
            #expect(first.status == 201 && first["webAppToken"] is String)
            // Same key, another body: the stored answer's key wins, nothing new starts.
            let second = try await h.start(Self.body(), key: "k-1")
            #expect(second.status == 422 && second.code == "idempotency_key_reused")
            #expect(try await h.journeyCount() == 1)
        }
    }
}
