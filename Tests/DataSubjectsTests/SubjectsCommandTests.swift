import Cryptography
import DataSubjects
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

/// `journeys subjects find|export|erase` against a stack's database, with the stack's (development) keys.
@Suite(.serialized) struct SubjectsCommandTests {
    /// The development sealing keys the test stack uses, as the environment gives them.
    static let keys: [String: String] = [
        "JOURNEYS_KEK": Base64URL.encode(SHA256.hash("human-token-journeys INSECURE development KEK v1")),
        "JOURNEYS_KEK_ID": "dev-insecure-1",
        "JOURNEYS_SUBJECT_REF_KEY": Base64URL.encode(SHA256.hash("human-token-journeys INSECURE development subject-ref key v1")),
    ]

    func journeys(_ arguments: [String], _ database: TestDatabase, keys: [String: String] = SubjectsCommandTests.keys) async
        -> (code: Int32, output: String, error: String)
    {
        var variables = keys
        variables["DATABASE_URL"] = database.appURL
        variables["DATABASE_ADMIN_URL"] = database.ownerURL
        return await JourneysCommand.run(arguments, variables: variables)
    }

    @Test func findExportEraseFromTheCommandLine() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let db = stack.database
            let person = SubjectErasureEndToEndTests.one
            let journey = try await SubjectErasureEndToEndTests.complete(person, stack: stack, idempotencyKey: "cli-1")

            let found = await journeys(["subjects", "find", "--document", person.formatted, "--format", "json"], db)
            #expect(found.code == 0, "\(found.error)")
            #expect(!found.output.contains(person.cpf))
            let finding = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any]
            let reference = try #require(finding?["subjectReference"] as? String)
            #expect(finding?["journeyIds"] as? [String] == [journey.id])

            let asReference = await journeys(["subjects", "export", person.cpf], db)
            #expect(asReference.code == 64)
            #expect(asReference.error.contains("looks like a document number"))
            #expect(!asReference.error.contains(person.cpf))
            let asDocument = await journeys(["subjects", "find", "--document", reference], db)
            #expect(asDocument.code == 64)
            #expect(asDocument.error.contains("looks like a subject reference"))
            let unknown = String(repeating: "cd", count: 32)
            let missing = await journeys(["subjects", "erase", unknown], db)
            #expect(missing.code == 1)
            #expect(missing.error.contains(unknown))
            let noKeys = await journeys(["subjects", "export", reference], db, keys: [:])
            #expect(noKeys.code == 64)
            #expect(noKeys.error.contains("JOURNEYS_KEK"))

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("subject-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let exported = await journeys(["subjects", "export", reference, "--output", file], db)
            #expect(exported.code == 0, "\(exported.error)")
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains(person.name))

            let erased = await journeys(["subjects", "erase", reference, "--reason", "customer asked"], db)
            #expect(erased.code == 0, "\(erased.error)")
            #expect(erased.output.contains("1 of 1 journey(s) marked"))
            let again = await journeys(["subjects", "erase", reference], db)
            #expect(again.code == 0)
            #expect(again.output.contains("already erased"))
            let shown = await journeys(["audit", "show", journey.id], db)
            #expect(shown.output.contains("subject erased by cli: customer asked"))
            #expect(shown.output.contains("subject erased"))
            let after = await journeys(["subjects", "export", reference], db)
            #expect(!after.output.contains(person.name))
            #expect(after.output.contains("\"erased\" : true"))
        }
    }

    @Test func argumentsTellDocumentsFromReferences() throws {
        #expect(try SubjectArgument.document("529.982.247-25", type: nil).0 == .brCPF)
        #expect(try SubjectArgument.document("11.222.333/0001-81", type: nil).0 == .brCNPJ)
        #expect(throws: DataSubjectsError.self) { try SubjectArgument.document("52998224726", type: nil) }
        #expect(throws: DataSubjectsError.self) { try SubjectArgument.document("123", type: nil) }
        #expect(throws: DataSubjectsError.self) { try SubjectArgument.document("52998224725", type: "passport") }
        #expect(throws: DataSubjectsError.self) { try SubjectArgument.reference("not-a-reference") }
        let upper = String(repeating: "AB", count: 32)
        #expect(try SubjectArgument.reference(upper).rawValue == upper.lowercased())
        do {
            _ = try SubjectArgument.reference("11.222.333/0001-81")
            Issue.record("a CNPJ was taken for a reference")
        } catch let error as DataSubjectsError {
            #expect(error.code == .documentGivenAsReference)
            #expect(!error.message.contains("11.222.333"))
        }
    }
}
