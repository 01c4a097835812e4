import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Testing

/// The start's answer is stored in the attempt's transaction, pipelined with the attempt's webhook
/// lookup row: both land, or (when one fails) neither does and nothing of the attempt is recorded.
@Suite struct PipelinedAnswerTests {
    @Test func aKeyedStartStoresItsAnswerAndTheLookupRowWithTheAttempt() async throws {
        try await withJourneys { h in
            let answer = try await h.start(key: "pipelined")
            #expect(answer.status == 201)
            let journeyID = try #require(answer["journeyId"] as? String)
            let key = try await h.database.owner.query(
                """
                SELECT state, outcome::text FROM idempotency_keys WHERE key = 'pipelined'
                """)
            let row = try #require(key.first)
            #expect(try row.decode(0, as: String.self) == "completed")
            // The key keeps the start's outcome, not its HTTP answer.
            let stored = try JSONSerialization.jsonObject(with: Data(try row.decode(1, as: String.self).utf8)) as? [String: Any]
            #expect(stored?["kind"] as? String == "token")
            #expect(stored?["journeyID"] as? String == journeyID)
            #expect(stored?["webAppToken"] as? String == answer["webAppToken"] as? String)
            let lookups = try await h.database.owner.query(
                "SELECT count(*)::int FROM process_journeys WHERE journey_id = \(journeyID)")
            #expect(try lookups.first?.decode(0, as: Int.self) == 1)

            let replayed = try await h.start(key: "pipelined")
            #expect(replayed.status == 201)
            #expect(replayed["webAppToken"] as? String == answer["webAppToken"] as? String)
            #expect(replayed["journeyId"] as? String == journeyID)
            #expect(replayed.headers["idempotent-replayed"] == "true")
        }
    }
}
