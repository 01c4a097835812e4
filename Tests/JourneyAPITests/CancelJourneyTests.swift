import AccessControl
import Foundation
@testable import JourneyAPI
import JourneyTesting
import Testing

/// `POST /v1/journeys/{id}/cancel` (issue 26 item 5): the company ends a journey; it makes no
/// more processes and the app is told clearly; scopes, tenants and bad input answer 4xx naming
/// what is wrong.
@Suite(.serialized) struct CancelJourneyTests {
    static let reason = "order 42 withdrawn by the customer"

    @Test func cancelEndsTheJourneyAndTheAppIsToldClearly() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)

            let cancelled = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: h.writer, json: ["reason": Self.reason])
            #expect(cancelled.status == 200, "\(cancelled.text)")
            #expect(cancelled["status"] as? String == "abandoned")
            let reason = try #require(cancelled["abandonReason"] as? [String: Any])
            #expect(reason["kind"] as? String == "cancelled")
            #expect(reason["detail"] as? String == Self.reason)
            #expect(try await h.eventTypes(id).suffix(2) == ["JourneyCancelled", "JourneyAbandoned"])
            let data = try await h.database.owner.query(
                """
                SELECT data->>'actor', data->>'reason' FROM events
                WHERE stream_name = \("journey-" + id) AND event_type = 'JourneyCancelled'
                """)
            #expect(try data.first?.decode(0, as: String.self).hasPrefix("api-key:") == true, "the key is the actor")
            #expect(try data.first?.decode(1, as: String.self) == Self.reason)
            let count = try await h.eventTypes(id).count

            // The app: no more processes, and it learns why.
            for (path, body) in [("token", nil), ("capture-opened", ["attempt": 1]) as (String, [String: Any]?)] {
                let answer = try await h.send("POST", "/v1/journeys/\(id)/\(path)", bearer: clientToken, json: body)
                #expect(answer.status == 409, "\(path): \(answer.text)")
                #expect(answer.code == "invalid_transition", "\(path)")
                #expect(answer["journeyStatus"] as? String == "abandoned", "\(path)")
                #expect(answer["abandonReason"] as? String == "cancelled", "\(path)")
                #expect(answer["retryable"] as? Bool == false, "\(path)")
            }
            let renewed = try await h.send("POST", "/v1/journeys/\(id)/client-token", bearer: h.writer)
            #expect(renewed.status == 410 && renewed.code == "journey_ended", "\(renewed.text)")

            // A retried cancel answers the same and appends nothing.
            let again = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: h.writer, json: ["reason": "again"])
            #expect(again.status == 200, "\(again.text)")
            #expect((again["abandonReason"] as? [String: Any])?["detail"] as? String == Self.reason)
            #expect(try await h.eventTypes(id).count == count, "nothing is appended twice")
        }
    }

    @Test func aJourneyThatEndedOtherwiseIsRefusedNamingItsState() async throws {
        try await withJourneys { h in
            let captured = try await h.capture(.approve)
            let id = captured.id
            let callback = try await h.callbackSuccess(captured)
            #expect(callback["status"] as? String == "completed", "\(callback.text)")
            let refused = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: h.writer, json: ["reason": Self.reason])
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.code == "invalid_transition")
            #expect(refused["journeyStatus"] as? String == "completed")
            #expect(refused["journeyId"] as? String == id)
        }
    }

    @Test func scopesAndTenantsAreEnforced() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let body = ["reason": Self.reason]

            let anonymous = try await h.send("POST", "/v1/journeys/\(id)/cancel", json: body)
            #expect(anonymous.status == 401, "\(anonymous.text)")
            let readOnly = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: h.reader, json: body)
            #expect(readOnly.status == 403, "\(readOnly.text)")
            #expect(readOnly["scope"] as? String == "journeys:write")
            let app = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: clientToken, json: body)
            #expect(app.status == 401 || app.status == 403, "the app's client token cannot cancel: \(app.text)")

            _ = try await TenantStore(client: h.database.app).create(name: "acme")
            let acme = try await APIKeyStore(client: h.database.app).create(
                name: "acme", scopes: [.journeysWrite], tenant: "acme")
            let other = try await h.send("POST", "/v1/journeys/\(id)/cancel", bearer: acme.plaintext, json: body)
            #expect(other.status == 404 && other.code == "journey_not_found", "\(other.text)")
            let unknown = try await h.send(
                "POST", "/v1/journeys/\(UUID().uuidString.lowercased())/cancel",
                bearer: h.writer, json: body)
            #expect(unknown.status == 404 && unknown.code == "journey_not_found")

            #expect(try await h.eventTypes(id).contains("JourneyCancelled") == false, "no refused call cancelled it")
            let view = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            #expect(view["status"] as? String != "abandoned")
        }
    }

    @Test func badInputAnswers4xxNamingTheField() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let path = "/v1/journeys/\(id)/cancel"
            let cases: [(String, Any?, Int, String)] = [
                ("no body", nil, 422, "validation_failed"),
                ("no reason", [String: Any](), 422, "validation_failed"),
                ("blank", ["reason": "  "], 422, "validation_failed"),
                ("too long", ["reason": String(repeating: "x", count: 201)], 422, "validation_failed"),
                ("a CPF", ["reason": "customer 123.456.789-09 asked"], 422, "validation_failed"),
                ("an e-mail", ["reason": "asked by maria@example.com"], 422, "validation_failed"),
                ("control characters", ["reason": "a\u{1b}[31mred"], 422, "validation_failed"),
                ("not a string", ["reason": 42], 400, "invalid_json"),
            ]
            for (label, body, status, code) in cases {
                let answer = try await h.send("POST", path, bearer: h.writer, json: body)
                #expect(answer.status == status, "\(label): \(answer.text)")
                #expect(answer.code == code, "\(label)")
                #expect(answer.field == "reason", "\(label) names the field: \(answer.text)")
                #expect(answer.headers["content-type"]?.hasPrefix("application/problem+json") == true, "\(label)")
                #expect(!answer.text.contains("123.456.789-09") && !answer.text.contains("maria@"), "\(label) repeats no value")
            }
            let form = try await h.stack.send("POST", path, bearer: h.writer, form: "reason=x")
            #expect(form.status == 415, "\(form.text)")
            let notJSON = try await h.send(
                "POST", path, bearer: h.writer, headers: ["Content-Type": "application/json"],
                json: nil)
            #expect(notJSON.status == 422 && notJSON.field == "reason", "an empty body is a missing reason")
            #expect(try await h.eventTypes(id).contains("JourneyCancelled") == false)
        }
    }
}
