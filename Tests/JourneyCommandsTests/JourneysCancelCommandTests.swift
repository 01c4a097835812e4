import Foundation
import JourneyTesting
import Testing

/// `journeys journeys cancel ID --reason TEXT`: the operator's cancel, as the API's.
@Suite struct JourneysCancelCommandTests {
    @Test func cancelsOnceNamesBadInputAndRefusesEndedOrUnknownJourneys() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let started = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess",
                ])
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)

            let bad: [([String], String)] = [
                (["journeys", "cancel", id], "--reason"),
                (["journeys", "cancel", id, "--reason", " "], "--reason is required"),
                (["journeys", "cancel", id, "--reason", "CPF 123.456.789-09"], "--reason must not hold personal data"),
                (["journeys", "cancel", "not-a-uuid", "--reason", "x"], "ID must be a journey id"),
            ]
            for (arguments, message) in bad {
                let result = await journeys(arguments, database: stack.database)
                #expect(result.code == 64, "\(arguments): \(result.error)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            }

            let cancelled = await journeys(
                ["journeys", "cancel", id, "--reason", "operator: duplicate order"],
                database: stack.database)
            #expect(cancelled.code == 0, "\(cancelled.error)")
            #expect(cancelled.output.contains("journey \(id) cancelled at"), "\(cancelled.output)")
            let view = try await stack.send("GET", "/v1/journeys/\(id)", bearer: stack.reader)
            #expect(view["status"] as? String == "abandoned")
            #expect((view["abandonReason"] as? [String: Any])?["kind"] as? String == "cancelled")
            let actors = try await stack.database.owner.query(
                """
                SELECT actor FROM events WHERE stream_name = \("journey-" + id) AND event_type = 'JourneyCancelled'
                """)
            #expect(try actors.map { try $0.decode(0, as: String.self) } == ["cli"])

            let again = await journeys(["journeys", "cancel", id, "--reason", "again"], database: stack.database)
            #expect(again.code == 0 && again.output.contains("was already cancelled"), "\(again.output) \(again.error)")
            let unknown = await journeys(["journeys", "cancel", UUID().uuidString, "--reason", "x"], database: stack.database)
            #expect(unknown.code == 1 && unknown.error.contains("no journey has id"), "\(unknown.error)")

            let help = await journeys(["journeys", "cancel", "--help"])
            #expect(help.code == 0 && help.output.contains("Usage:"))
        }
    }
}
