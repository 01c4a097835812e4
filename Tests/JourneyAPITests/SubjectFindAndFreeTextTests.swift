import AccessControl
import Foundation
@testable import JourneyAPI
import JourneyTesting
import Testing

/// Issue 23: `POST /v1/subjects/find` keeps the document out of URLs (the GET stays, deprecated),
/// and free text recorded for ever refuses CPF, CNPJ and e-mail shapes with a 422 naming the field.
@Suite(.serialized) struct SubjectFindAndFreeTextTests {
    @Test func findBySubjectDocumentInTheBody() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let dpo = try await APIKeyStore(client: h.database.app).create(name: "dpo", scopes: [.subjectsAdmin]).plaintext

            let found = try await h.send("POST", "/v1/subjects/find", bearer: dpo, json: ["document": "123.456.789-09"])
            #expect(found.status == 200, "\(found.text)")
            #expect(found.headers["cache-control"] == "no-store")
            #expect(found["journeyIds"] as? [String] == [id])
            #expect(!found.text.contains("12345678909"))
            let legacy = try await h.send("GET", "/v1/subjects?document=12345678909", bearer: dpo)
            #expect(legacy.status == 200 && legacy["subjectReference"] as? String == found["subjectReference"] as? String)
            #expect(legacy.headers["deprecation"] == "true")

            let typed = try await h.send(
                "POST", "/v1/subjects/find", bearer: dpo,
                json: ["document": "12345678909", "documentType": "cpf"])
            #expect(typed.status == 200, "\(typed.text)")
            let forbidden = try await h.send("POST", "/v1/subjects/find", bearer: h.reader, json: ["document": "12345678909"])
            #expect(forbidden.status == 403)
            let missing = try await h.send("POST", "/v1/subjects/find", bearer: dpo, json: [String: Any]())
            #expect(missing.status == 400 && missing.field == "document", "\(missing.text)")
            let bad = try await h.send("POST", "/v1/subjects/find", bearer: dpo, json: ["document": "12345678900"])
            #expect(bad.status == 400 && bad.field == "document" && !bad.text.contains("12345678900"), "\(bad.text)")
            let notString = try await h.send("POST", "/v1/subjects/find", bearer: dpo, json: ["document": 12345678909])
            #expect(notString.status == 400 && notString.code == "invalid_json", "\(notString.text)")
            let form = try await h.stack.send("POST", "/v1/subjects/find", bearer: dpo, form: "document=12345678909")
            #expect(form.status == 415)
        }
    }

    @Test func freeTextRecordedForEverRefusesPersonalDataShapes() async throws {
        try await withJourneys { h in
            for reference in ["123.456.789-09", "11222333000181", "maria@example.com"] {
                let answer = try await h.send(
                    "POST", "/v1/journeys", bearer: h.writer,
                    json: JourneyHarness.startBody { $0["clientReference"] = reference })
                #expect(answer.status == 422 && answer.code == "validation_failed", "\(reference): \(answer.text)")
                #expect(answer.field == "clientReference", "\(reference)")
                #expect(!answer.text.contains(reference), "\(reference) is not repeated")
            }
            let order = try await h.send(
                "POST", "/v1/journeys", bearer: h.writer,
                json: JourneyHarness.startBody { $0["clientReference"] = "ORD-20261205-143000" })
            #expect(order.status == 201, "an order number passes: \(order.text)")
            let id = try #require(order["journeyId"] as? String)

            let keys = APIKeyStore(client: h.database.app)
            let opener = try await keys.create(name: "opener", scopes: [.humanTokenRead]).plaintext
            let purpose = try await h.send(
                "GET", "/v1/journeys/\(id)/human-token", bearer: opener,
                headers: ["Disclosure-Purpose": "check for joao@example.com"])
            #expect(purpose.status == 422 && purpose.field == "Disclosure-Purpose", "\(purpose.text)")

            let dpo = try await keys.create(name: "dpo", scopes: [.subjectsAdmin]).plaintext
            let found = try await h.send("POST", "/v1/subjects/find", bearer: dpo, json: ["document": "12345678909"])
            let reference = try #require(found["subjectReference"] as? String)
            let erase = try await h.send(
                "DELETE", "/v1/subjects/\(reference)", bearer: dpo,
                json: ["reason": "request of 123.456.789-09"])
            #expect(erase.status == 422 && erase.field == "reason" && !erase.text.contains("789-09"), "\(erase.text)")
            let byQuery = try await h.send("DELETE", "/v1/subjects/\(reference)?reason=call%20(11)%2098765-4321", bearer: dpo)
            #expect(byQuery.status == 422 && byQuery.field == "reason", "\(byQuery.text)")
            let erased = try await h.send("DELETE", "/v1/subjects/\(reference)", bearer: dpo, json: ["reason": "LGPD request 77"])
            #expect(erased.status == 200, "\(erased.text)")
        }
    }
}
