import AccessControl
import Audit
import EventStore
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

/// The disclosure trail through the API over real PostgreSQL: opening a Human Token or personal
/// data needs `human-token:read` and a `Disclosure-Purpose`, and each opening appends
/// `PersonalDataDisclosed` (who, fields, purpose; no values) that `audit show` and the subject
/// export list, without breaking chains, projections or rebuilds.
@Suite(.serialized) struct DisclosureTrailTests {
    /// Every way to open a journey's sealed fields.
    enum Opening: String, CaseIterable, CustomTestStringConvertible {
        case humanTokenRoute, subjectExportRoute, subjectExportCommand
        var testDescription: String { rawValue }

        var channel: String {
            switch self {
            case .humanTokenRoute: "GET /v1/journeys/{id}/human-token"
            case .subjectExportRoute: "GET /v1/subjects/{ref}/export"
            case .subjectExportCommand: "journeys subjects export"
            }
        }

        var fields: [String] {
            switch self {
            case .humanTokenRoute: ["humanToken"]
            case .subjectExportRoute, .subjectExportCommand: ["documentNumber", "name", "phone", "email", "humanToken"]
            }
        }
    }

    static let person = SubjectErasureEndToEndTests.one
    static let purpose = "support ticket 4711: customer disputes the check"

    static func options() -> TestStack.Options {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        return options
    }

    /// The journey's events as `(type, data)`, in stream order, read as the schema owner.
    static func events(_ id: String, _ db: TestDatabase) async throws -> [(type: String, data: String)] {
        try await db.owner.query(
            """
            SELECT event_type, data::text FROM events WHERE stream_name = \("journey-" + id) ORDER BY stream_version
            """
        ).map { (try $0.decode(0, as: String.self), try $0.decode(1, as: String.self)) }
    }

    static func disclosures(_ id: String, _ db: TestDatabase) async throws -> [[String: Any]] {
        try await events(id, db).filter { $0.type == "PersonalDataDisclosed" }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.data.utf8)) as? [String: Any])
        }
    }

    func journeys(_ arguments: [String], _ database: TestDatabase) async -> (code: Int32, output: String, error: String) {
        await SubjectsCommandTests().journeys(arguments, database)
    }

    @Test(arguments: Opening.allCases)
    func everyOpeningRecordsOneDisclosureWithoutValues(opening: Opening) async throws {
        try await TestStack.with(Self.options()) { stack in
            let db = stack.database
            let journey = try await SubjectErasureEndToEndTests.complete(Self.person, stack: stack, idempotencyKey: "o-1")
            let keys = APIKeyStore(client: db.app)
            let opener = try await keys.create(name: "opener", scopes: [.journeysRead, .humanTokenRead, .subjectsAdmin])
            let found = try await stack.send("GET", "/v1/subjects?document=\(Self.person.cpf)", bearer: opener.plaintext)
            let reference = try #require(found["subjectReference"] as? String)
            _ = try await stack.projections.catchUp()
            let before = try await stack.send("GET", "/v1/journeys/\(journey.id)", bearer: stack.reader)
            let headers = ["Disclosure-Purpose": Self.purpose]

            switch opening {
            case .humanTokenRoute:
                let opened = try await stack.send(
                    "GET", "/v1/journeys/\(journey.id)/human-token",
                    bearer: opener.plaintext, headers: headers)
                #expect(opened.status == 200, "\(opened.text)")
                #expect(opened["humanToken"] as? String == journey.tokens[2])
                #expect(opened.headers["cache-control"] == "no-store")
            case .subjectExportRoute:
                let export = try await stack.send(
                    "GET", "/v1/subjects/\(reference)/export",
                    bearer: opener.plaintext, headers: headers)
                #expect(export.status == 200, "\(export.text)")
                #expect(export.headers["cache-control"] == "no-store")
                let listed = try #require((export["journeys"] as? [[String: Any]])?.first?["disclosures"] as? [[String: Any]])
                #expect(listed.count == 1, "the export lists its own disclosure")
                #expect(listed.first?["purpose"] as? String == Self.purpose)
            case .subjectExportCommand:
                let exported = await journeys(["subjects", "export", reference, "--purpose", Self.purpose], db)
                #expect(exported.code == 0, "\(exported.error)")
                #expect(exported.output.contains(Self.person.name))
            }

            // One event, naming who, which fields, through what and why; no value anywhere in it.
            let disclosed = try await Self.disclosures(journey.id, db)
            #expect(disclosed.count == 1)
            let event = try #require(disclosed.first)
            #expect(event["fields"] as? [String] == opening.fields)
            #expect(event["purpose"] as? String == Self.purpose)
            #expect(event["channel"] as? String == opening.channel)
            if opening == .subjectExportCommand {
                #expect(event["actor"] as? String == "cli")
                #expect(event["keyId"] == nil)
            } else {
                #expect(event["actor"] as? String == "api-key:\(opener.key.prefix)")
                #expect(event["keyId"] as? String == opener.key.id.uuidString.lowercased())
                #expect(event["tenant"] as? String == "default", "the key's tenant")
            }
            let eventText = try await Self.events(journey.id, db).last { $0.type == "PersonalDataDisclosed" }?.data ?? ""
            for value in SubjectErasureEndToEndTests.plaintexts(Self.person, journey) {
                #expect(!eventText.contains(value), "a disclosed value is in the event")
            }

            // `audit show` lists it (table and JSON); the API's export lists it.
            let shown = await journeys(["audit", "show", journey.id], db)
            #expect(shown.code == 0, "\(shown.error)")
            #expect(shown.output.contains("disclosures: 1"))
            #expect(shown.output.contains(Self.purpose))
            #expect(shown.output.contains(opening.fields.joined(separator: ",")))
            let json = await journeys(["audit", "show", journey.id, "--format", "json"], db)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            let listed = try #require(document["disclosures"] as? [[String: Any]])
            #expect(listed.first?["purpose"] as? String == Self.purpose)
            #expect(listed.first?["channel"] as? String == opening.channel)
            let export = try await stack.send(
                "GET", "/v1/subjects/\(reference)/export", bearer: opener.plaintext,
                headers: ["Disclosure-Purpose": "auditor review"])
            let exported = try #require((export["journeys"] as? [[String: Any]])?.first?["disclosures"] as? [[String: Any]])
            #expect(exported.map { $0["purpose"] as? String } == [Self.purpose, "auditor review"])

            // Chains verify; the projection folds it as a version bump only; a rebuild agrees.
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
            #expect(await journeys(["audit", "verify"], db).code == 0)
            _ = try await stack.projections.catchUp()
            let after = try await stack.send("GET", "/v1/journeys/\(journey.id)", bearer: stack.reader)
            #expect(after["status"] as? String == "completed")
            #expect(after["updatedAt"] as? String == before["updatedAt"] as? String, "a read is not an update")
            #expect(after["version"] as? Int == (before["version"] as? Int ?? 0) + 2)
            let stored = try await db.owner.query("SELECT version FROM journey_state WHERE journey_id = \(journey.id)")
            #expect(try stored.first?.decode(0, as: Int.self) == after["version"] as? Int)
            let rebuilt = await journeys(["projections", "rebuild", "journey_state"], db)
            #expect(rebuilt.code == 0, "\(rebuilt.error)")
            let again = try await stack.send("GET", "/v1/journeys/\(journey.id)", bearer: stack.reader)
            #expect(again["version"] as? Int == after["version"] as? Int)
        }
    }

    @Test func openingNeedsTheScopeAndAPurposeAndRecordsNothingWhenRefused() async throws {
        try await TestStack.with(Self.options()) { stack in
            let db = stack.database
            let journey = try await SubjectErasureEndToEndTests.complete(Self.person, stack: stack, idempotencyKey: "r-1")
            let keys = APIKeyStore(client: db.app)
            let reader = try await keys.create(name: "old reader", scopes: [.journeysRead]).plaintext
            let dpo = try await keys.create(name: "dpo", scopes: [.subjectsAdmin]).plaintext
            let found = try await stack.send("GET", "/v1/subjects?document=\(Self.person.cpf)", bearer: dpo)
            let reference = try #require(found["subjectReference"] as? String)
            let purpose = ["Disclosure-Purpose": Self.purpose]

            // Without human-token:read: 403 naming the scope, on both opening routes.
            let token = try await stack.send("GET", "/v1/journeys/\(journey.id)/human-token", bearer: reader, headers: purpose)
            #expect(token.status == 403)
            #expect(token.text.contains("human-token:read"))
            let export = try await stack.send("GET", "/v1/subjects/\(reference)/export", bearer: dpo, headers: purpose)
            #expect(export.status == 403)
            #expect(export.text.contains("human-token:read"))

            // A journeys:read key keeps reading states, timestamps and the sealed trail.
            _ = try await stack.projections.catchUp()
            for path in ["/v1/journeys/\(journey.id)", "/v1/journeys/\(journey.id)/events", "/v1/journeys"] {
                let read = try await stack.send("GET", path, bearer: reader)
                #expect(read.status == 200, "\(path): \(read.text)")
            }

            // Without a usable purpose: 400 naming the header.
            let path = "/v1/journeys/\(journey.id)/human-token"
            let bad: [[String: String]] = [
                [:], ["Disclosure-Purpose": "   "], ["Disclosure-Purpose": String(repeating: "p", count: 201)],
                ["Disclosure-Purpose": "audit\u{7}bell"],
            ]
            for headers in bad {
                let refused = try await stack.send("GET", path, bearer: stack.reader, headers: headers)
                #expect(refused.status == 400, "\(headers): \(refused.text)")
                #expect(refused.code == "invalid_disclosure_purpose")
                #expect(refused["field"] as? String == "Disclosure-Purpose")
                #expect(!refused.text.contains(journey.tokens[2]))
            }
            let tooLong = await journeys(["subjects", "export", reference, "--purpose", String(repeating: "p", count: 201)], db)
            #expect(tooLong.code == 64)
            #expect(tooLong.error.contains("--purpose"))
            #expect(try await Self.disclosures(journey.id, db).isEmpty, "a refused opening records nothing")

            // An erased subject's Human Token does not open, so nothing is disclosed.
            let admin = try await keys.create(name: "admin", scopes: [.admin]).plaintext
            #expect(try await stack.send("DELETE", "/v1/subjects/\(reference)", bearer: admin).status == 200)
            let gone = try await stack.send("GET", path, bearer: admin, headers: purpose)
            #expect(gone.status == 410)
            let erasedExport = try await stack.send("GET", "/v1/subjects/\(reference)/export", bearer: admin, headers: purpose)
            #expect(erasedExport.status == 200)
            #expect(try await Self.disclosures(journey.id, db).isEmpty)
        }
    }

    @Test func answersCarryingTokensAreNotCached() async throws {
        try await TestStack.with(Self.options()) { stack in
            let body: [String: Any] = [
                "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": Self.person.cpf, "name": Self.person.name],
                "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
            ]
            let started = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                headers: ["Idempotency-Key": "cache-1"], json: body)
            #expect(started.status == 201, "\(started.text)")
            #expect(started.headers["cache-control"] == "no-store")
            let replayed = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                headers: ["Idempotency-Key": "cache-1"], json: body)
            #expect(replayed.status == 201)
            #expect(replayed.headers["cache-control"] == "no-store")
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let token = try await stack.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(token.status == 200, "\(token.text)")
            #expect(token.headers["cache-control"] == "no-store")
            let link = try await stack.send("GET", "/v1/journeys/\(id)/link", bearer: clientToken)
            #expect(link.status == 200, "\(link.text)")
            #expect(link.headers["cache-control"] == "no-store")
        }
    }
}
