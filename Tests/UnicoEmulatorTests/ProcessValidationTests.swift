import Foundation
import Testing
import UnicoEmulator

/// One invalid Create Process body and the field its error must name.
struct InvalidBody: Sendable, CustomTestStringConvertible {
    let field: String
    let label: String
    let apply: @Sendable (inout [String: Any]) -> Void

    var testDescription: String { "\(field): \(label)" }

    static func person(_ field: String, _ label: String, _ value: Any?) -> InvalidBody {
        nonisolated(unsafe) let value = value
        return InvalidBody(field: "person.\(field)", label: label) { body in
            var person = body["person"] as! [String: Any]
            person[field] = value
            body["person"] = person
        }
    }

    static func root(_ field: String, _ label: String, _ value: Any?) -> InvalidBody {
        nonisolated(unsafe) let value = value
        return InvalidBody(field: field, label: label) { body in body[field] = value }
    }

    static let all: [InvalidBody] = [
        .root("callbackUri", "missing", nil),
        .root("callbackUri", "relative without slash", "callback"),
        .root("flow", "missing", nil),
        .root("flow", "blank", "  "),
        .root("purpose", "not in the enum", "shopping"),
        .root("purpose", "wrong type", 7),
        .root("person", "missing", nil),
        .root("person", "not an object", "Maria"),
        .root("clientReference", "not a string", 42),
        .root("expiresIn", "no unit", "3600"),
        .root("expiresIn", "zero", "0s"),
        .root("expiresIn", "minutes", "5m"),
        .person("duiType", "missing", nil),
        .person("duiType", "not a DUI type", "CPF"),
        .person("duiValue", "missing", nil),
        .person("duiValue", "punctuation", "123.456.789-09"),
        .person("duiValue", "short CPF", "1234"),
        .person("friendlyName", "51 characters", String(repeating: "a", count: 51)),
        .person("phone", "letters", "call me"),
        .person("email", "no at sign", "maria.example.com"),
        .person("notifications", "not an array", "email"),
        InvalidBody(field: "person.notifications[1].notificationChannel", label: "unknown channel") { body in
            var person = body["person"] as! [String: Any]
            person["notifications"] = [["notificationChannel": "NOTIFICATION_CHANNEL_EMAIL"], ["notificationChannel": "PIGEON"]]
            body["person"] = person
        },
        InvalidBody(field: "person.phone", label: "SMS without phone") { body in
            var person = body["person"] as! [String: Any]
            person["phone"] = nil
            person["notifications"] = [["notificationChannel": "NOTIFICATION_CHANNEL_SMS"]]
            body["person"] = person
        },
    ]
}

@Suite("Create Process validation")
struct ProcessValidationTests {
    @Test(arguments: InvalidBody.all)
    func refusesAnInvalidFieldNamingIt(_ invalid: InvalidBody) async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            var body = Fixture.validBody
            invalid.apply(&body)
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, body)
            #expect(reply.status == 400)
            let error = try reply.apiError()
            #expect(error.code == 3)
            #expect(error.message.hasPrefix(invalid.field + ":"), "message: \(error.message)")
            #expect(fixture.emulator.processes().isEmpty)
        }
    }

    @Test func refusesABodyThatIsNotJSON() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            let reply = try await fixture.client.send(
                "POST", "/processes", headers: ["Authorization": "Bearer \(token)"], body: Data("callbackUri=/".utf8))
            #expect(reply.status == 400)
            #expect(try reply.apiError().code == 3)
            #expect(try reply.apiError().message.hasPrefix("body:"))
        }
    }

    @Test func acceptsTheMinimalBodyAndTheEdgesOfEachRule() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            let minimal: [String: Any] = [
                "callbackUri": "https://example.com/back", "flow": "idtoken", "purpose": "creditprocess",
                "person": [
                    "duiType": "DUI_TYPE_BR_CPF", "duiValue": "12345678909", "friendlyName": String(repeating: "é", count: 50),
                ],
                "unknownField": true,
            ]
            let process = try await fixture.createProcess(token: token, minimal)
            #expect(process["clientReference"] == nil)
            #expect(process["expiresAt"] as? String == "2026-01-08T00:00:00.000Z", "default lifetime 7 days")
        }
    }

    /// Bodies go through the one-pass reader; what it cannot vouch for (`\u` escapes, fractions) falls back to JSONDecoder.
    @Test func readsEscapesAndFallsBackForWhatTheOnePassReaderLeaves() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            let person = #""person":{"duiType":"DUI_TYPE_BR_CPF","duiValue":"12345678909","friendlyName":"Maria"}"#
            let plain =
                #"{"callbackUri":"https:\/\/example.com\/back","flow":"idtoken","purpose":"creditprocess","clientReference":"a\/b","#
            let fallback =
                #"{"callbackUri":"/","flow":"idtoken","purpose":"creditprocess","clientReference":"r\u00e9f","extra":1.5,"#
            for (text, reference) in [(plain + person + "}", "a/b"), (fallback + person + "}", "réf")] {
                let reply = try await fixture.client.send(
                    "POST", "/processes", headers: ["Authorization": "Bearer \(token)"], body: Data(text.utf8))
                #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                let process = try #require(try reply.json()["process"] as? [String: Any])
                #expect(process["clientReference"] as? String == reference)
            }
            let trailing = try await fixture.client.send(
                "POST", "/processes", headers: ["Authorization": "Bearer \(token)"], body: Data((plain + person + "}}").utf8))
            #expect(trailing.status == 400)
            #expect(try trailing.apiError().message.hasPrefix("body:"))
        }
    }
}
