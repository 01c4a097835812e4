import AccessControl
import Audit
import Cryptography
import EventStore
import Foundation
import JourneyTesting
import Reports
import SDKLiteSimulator
import Testing

/// Find, export and erase a subject through the API over real PostgreSQL, the emulator and the
/// simulated device, with a second subject in another tenant; then look at the whole database as
/// `pg_dump` sees it.
@Suite(.serialized) struct SubjectErasureEndToEndTests {
    struct Person {
        let cpf: String
        let formatted: String
        let name: String
        let email: String
        let phone: String
    }

    static let one = Person(
        cpf: "52998224725", formatted: "529.982.247-25", name: "Joana Primeira Pereira",
        email: "joana.primeira@example.com", phone: "+5511987650001")
    static let two = Person(
        cpf: "11144477735", formatted: "111.444.777-35", name: "Carlos Segundo Lima",
        email: "carlos.segundo@example.com", phone: "+5511987650002")

    /// The `Disclosure-Purpose` header the routes that open personal data require.
    static let purpose = ["Disclosure-Purpose": "LGPD Art. 18 request #77"]

    /// What one completed journey left: its id and every token the subject's side saw.
    struct Completed {
        let id: String
        let tokens: [String]
    }

    static func complete(_ person: Person, stack: TestStack, writer: String? = nil, idempotencyKey: String) async throws
        -> Completed
    {
        let body: [String: Any] = [
            "subject": [
                "documentType": "DUI_TYPE_BR_CPF", "documentNumber": person.cpf, "name": person.name,
                "email": person.email, "phone": person.phone,
            ],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
        ]
        let started = try await stack.send(
            "POST", "/v1/journeys", bearer: writer ?? stack.writer,
            headers: ["Idempotency-Key": idempotencyKey], json: body)
        #expect(started.status == 201, "\(started.text)")
        let id = try #require(started["journeyId"] as? String)
        let clientToken = try #require(started["clientToken"] as? String)
        let webAppToken = try #require(started["webAppToken"] as? String)
        let device = await SimulatedDevice(emulatorURL: stack.emulatorURL).run(
            webAppToken: webAppToken, environment: .UAT,
            user: .approve)
        let processID = try #require(device.processId)
        let callback = try await stack.send(
            "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
            json: ["outcome": "success", "processId": processID])
        #expect(callback["status"] as? String == "completed", "\(callback.text)")
        let humanToken = try #require(try await stack.unico.getProcess(processID).humanToken)
        return Completed(id: id, tokens: [clientToken, webAppToken, humanToken])
    }

    /// The data of the test database as `pg_dump --data-only` writes it (as the superuser).
    struct DumpFailed: Error { let message: String }

    /// `pg_dump --data-only` of `database`; blocking, so callers run it `offPool`.
    static func dump(_ database: TestDatabase) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let bin =
            ProcessInfo.processInfo.environment["PG_BINDIR"]
            ?? versions.sorted().last.map { "/usr/lib/postgresql/\($0)/bin" } ?? "/usr/bin"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(bin)/pg_dump")
        process.arguments = ["--data-only", "--dbname", database.superuserURL]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw DumpFailed(message: String(decoding: problems, as: UTF8.self)) }
        return String(decoding: data, as: UTF8.self)
    }

    static func plaintexts(_ person: Person, _ journey: Completed) -> [String] {
        [person.cpf, person.formatted, person.name, person.email, person.phone] + journey.tokens
    }

    @Test func exportThenEraseLeavesNoPlaintextAndKeepsTheLogVerifiable() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let db = stack.database
            let dpo = try await APIKeyStore(client: db.app).create(name: "dpo", scopes: [.subjectsAdmin, .humanTokenRead])
                .plaintext
            // Subject 2 belongs to another company on the same deployment (tenant `beta`).
            _ = try await TenantStore(client: db.app).create(name: "beta")
            let betaKeys = APIKeyStore(client: db.app)
            let betaWriter = try await betaKeys.create(name: "beta backend", scopes: [.journeysWrite], tenant: "beta").plaintext
            let betaReader = try await betaKeys.create(
                name: "beta reader", scopes: [.journeysRead, .humanTokenRead, .reportsRead],
                tenant: "beta"
            ).plaintext
            let first = try await Self.complete(Self.one, stack: stack, writer: stack.writer, idempotencyKey: "order-1")
            let second = try await Self.complete(Self.two, stack: stack, writer: betaWriter, idempotencyKey: "order-2")
            let signer = Ed25519PrivateKey.generate()
            let keys = AuditKeys(signingKey: signer)
            _ = try await SignedCheckpointStore(client: db.app).create(signingWith: signer)

            // Before: the stored idempotency answer holds subject 1's live tokens in plaintext.
            let before = try await offPool { try Self.dump(db) }
            #expect(before.contains(first.tokens[1]))

            // Find: the document (formatted or not) gives the reference; the scope is needed.
            let forbidden = try await stack.send("GET", "/v1/subjects?document=\(Self.one.cpf)", bearer: stack.reader)
            #expect(forbidden.status == 403)
            let found = try await stack.send("GET", "/v1/subjects?document=\(Self.one.formatted)", bearer: dpo)
            #expect(found.status == 200, "\(found.text)")
            #expect(found.headers["cache-control"] == "no-store")
            let reference = try #require(found["subjectReference"] as? String)
            #expect(found["known"] as? Bool == true)
            #expect(found["journeyIds"] as? [String] == [first.id])
            #expect(!found.text.contains(Self.one.cpf))
            let asReference = try await stack.send(
                "GET", "/v1/subjects/\(Self.one.cpf)/export", bearer: dpo, headers: Self.purpose)
            #expect(asReference.status == 400)
            #expect(asReference.code == "document_given_as_reference")
            let asDocument = try await stack.send("GET", "/v1/subjects?document=\(reference)", bearer: dpo)
            #expect(asDocument.status == 400)
            #expect(asDocument.code == "reference_given_as_document")
            let unknown = String(repeating: "ab", count: 32)
            let missing = try await stack.send("GET", "/v1/subjects/\(unknown)/export", bearer: dpo, headers: Self.purpose)
            #expect(missing.status == 404)
            #expect(missing.code == "unknown_subject")
            #expect(missing.text.contains(unknown))

            // Export: personal data, the Human Token and the timeline.
            let export = try await stack.send("GET", "/v1/subjects/\(reference)/export", bearer: dpo, headers: Self.purpose)
            #expect(export.status == 200)
            #expect(export.headers["cache-control"] == "no-store")
            let journeys = try #require(export["journeys"] as? [[String: Any]])
            #expect(journeys.count == 1)
            let personal = try #require(journeys.first?["personalData"] as? [String: Any])
            #expect(personal["name"] as? String == Self.one.name)
            #expect(personal["documentNumber"] as? String == Self.one.cpf)
            #expect(personal["erased"] as? Bool == false)
            let result = try #require(journeys.first?["result"] as? [String: Any])
            #expect(result["humanToken"] as? String == first.tokens[2])
            #expect((journeys.first?["timeline"] as? [Any])?.isEmpty == false)

            // Erase, then erase again.
            let erased = try await stack.send(
                "DELETE", "/v1/subjects/\(reference)", bearer: dpo,
                json: ["reason": "LGPD Art. 18 request #77"])
            #expect(erased.status == 200, "\(erased.text)")
            #expect(erased["alreadyErased"] as? Bool == false)
            #expect(erased["journeysMarked"] as? Int == 1)
            #expect(erased["idempotencyAnswersPurged"] as? Int == 1)
            let again = try await stack.send("DELETE", "/v1/subjects/\(reference)", bearer: dpo)
            #expect(again.status == 200)
            #expect(again["alreadyErased"] as? Bool == true)
            #expect(try await stack.send("DELETE", "/v1/subjects/\(unknown)", bearer: dpo).status == 404)

            // Afterwards: sealed fields answer subject_erased; the export says erased.
            let token = try await stack.send(
                "GET", "/v1/journeys/\(first.id)/human-token", bearer: stack.reader, headers: Self.purpose)
            #expect(token.status == 410)
            #expect(token.code == "subject_erased")
            let journey = try await stack.send("GET", "/v1/journeys/\(first.id)", bearer: stack.reader)
            #expect(journey["status"] as? String == "completed")
            let trail = try await stack.send("GET", "/v1/journeys/\(first.id)/events", bearer: stack.reader)
            #expect(trail.text.contains("SubjectErased"))
            #expect(trail.text.contains("LGPD Art. 18 request #77"))
            let afterExport = try await stack.send("GET", "/v1/subjects/\(reference)/export", bearer: dpo, headers: Self.purpose)
            #expect(afterExport["erased"] as? Bool == true)
            let afterJourney = try #require((afterExport["journeys"] as? [[String: Any]])?.first)
            #expect((afterJourney["personalData"] as? [String: Any])?["erased"] as? Bool == true)
            #expect((afterJourney["result"] as? [String: Any])?["humanTokenErased"] as? Bool == true)
            #expect(afterExport.text.contains("subject erased by api-key:"))

            // Subject 2 (tenant beta) untouched, and out of the default tenant's reach.
            let other = try await stack.send(
                "GET", "/v1/journeys/\(second.id)/human-token", bearer: betaReader, headers: Self.purpose)
            #expect(other["humanToken"] as? String == second.tokens[2])
            let across = try await stack.send(
                "GET", "/v1/journeys/\(second.id)/human-token", bearer: stack.reader, headers: Self.purpose)
            #expect(across.status == 404)

            // Nothing in the database holds subject 1's data or tokens in plaintext; subject 2's answer stays.
            let after = try await offPool { try Self.dump(db) }
            for value in Self.plaintexts(Self.one, first) {
                #expect(!after.contains(value), "subject 1's value is still in the database")
            }
            #expect(after.contains(second.tokens[1]))
            #expect(after.contains(reference))

            // A new journey for the erased document is refused: the subject's key is a tombstone.
            let restart = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": Self.one.cpf],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                ])
            #expect(restart.status == 410, "\(restart.text)")
            #expect(restart.code == "subject_erased")

            // The chains and the signed checkpoints (before and after the erasure) verify.
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
            _ = try await SignedCheckpointStore(client: db.app).create(signingWith: signer)
            let checkpoints = try await CheckpointVerifier(client: db.app, keys: keys).verify()
            #expect(checkpoints.isIntact, "\(checkpoints.failures)")
            #expect(checkpoints.checked == 2)

            // Reports count both journeys: each tenant its own, the operator's (no tenant) both.
            _ = try await stack.projections.catchUp()
            let day = 86_400.0
            func date(_ offset: Double) -> String {
                String(ISO8601DateFormatter().string(from: Date().addingTimeInterval(offset)).prefix(10))
            }
            for reporter in [stack.reporter, betaReader] {
                let funnel = try await stack.send(
                    "GET", "/v1/reports/funnel?from=\(date(-day))&to=\(date(day))", bearer: reporter)
                #expect(funnel.status == 200, "\(funnel.text)")
                let steps = try #require((funnel["result"] as? [String: Any])?["steps"] as? [[String: Any]])
                #expect(steps.first?["journeys"] as? Int == 1)
            }
            let all = try await FunnelReport.run(
                ReportParameters(
                    from: Date().addingTimeInterval(-day),
                    to: Date().addingTimeInterval(day), now: Date()), on: db.app)
            #expect(all.steps.first?.journeys == 2)
        }
    }
}
