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
                SELECT state, response_status, response_body FROM idempotency_keys WHERE key = 'pipelined'
                """)
            let row = try #require(key.first)
            #expect(try row.decode(0, as: String.self) == "completed")
            #expect(try row.decode(1, as: Int.self) == 201)
            let stored = try JSONSerialization.jsonObject(with: Data(try row.decode(2, as: String.self).utf8)) as? [String: Any]
            #expect(stored?["journeyId"] as? String == journeyID)
            #expect(stored?["webAppToken"] as? String == answer["webAppToken"] as? String)
            let lookups = try await h.database.owner.query(
                "SELECT count(*)::int FROM process_journeys WHERE journey_id = \(journeyID)")
            #expect(try lookups.first?.decode(0, as: Int.self) == 1)

            let replayed = try await h.start(key: "pipelined")
            #expect(replayed.status == 201)
            #expect(replayed["webAppToken"] as? String == answer["webAppToken"] as? String)
        }
    }

    @Test func aFailingAnswerStatementRecordsNothingOfTheAttempt() async throws {
        try await withJourneys { h in
            let journeys = Journeys(database: h.database.app, dependencies: h.stack.dependencies.engine)
            let valid = try StartJourneyInput(
                environment: "UAT", flow: "humantoken", purpose: "creditprocess",
                subject: SubjectInput(documentType: "DUI_TYPE_BR_CPF", documentNumber: "12345678909"),
                clientReference: nil
            ).validated()
            let error = await captureError {
                _ = try await journeys.start(valid, actor: "test") { _, _ in
                    PipelinedAnswer(0, statements: ["SELECT 1 / 0"])
                }
            }
            let interrupted = try #require(error as? EngineError)
            #expect(interrupted.code == .startInterrupted)
            let journeyID = try #require(interrupted.journeyID?.rawValue)
            let types = try await h.eventTypes(journeyID)
            #expect(types.first == "JourneyStarted")
            #expect(!types.contains("ProcessCreated") && !types.contains("TokenIssued"))
            let lookups = try await h.database.owner.query(
                "SELECT count(*)::int FROM process_journeys WHERE journey_id = \(journeyID)")
            #expect(try lookups.first?.decode(0, as: Int.self) == 0)
        }
    }
}
