import AccessControl
import Foundation
import JourneyDomain
import JourneyTesting
import Testing

/// Issue 23: an erased subject's key is refused in other processes at once, not after their data
/// key cache's 30 s: two stacks (two processes' worth of pools and caches) on one database.
@Suite(.serialized) struct ErasureAcrossProcessesTests {
    @Test func aStartInAnotherProcessIsRefusedRightAfterAnErasure() async throws {
        try await TestDatabase.with { db in
            try await TestStack.with(TestStack.Options(time: .system), database: db) { one in
                try await TestStack.with(TestStack.Options(time: .system), database: db) { two in
                    let body = JourneyHarness.startBody { $0["createProcess"] = nil }
                    let first = try await two.send("POST", "/v1/journeys", bearer: two.writer, json: body)
                    #expect(first.status == 201, "\(first.text)")
                    // Process two holds the subject's key in its cache (filled outside a transaction).
                    _ = try await two.dependencies.vault.seal(
                        ValidatedSubject(documentType: .brCPF, documentNumber: "12345678909"))

                    let dpo = try await APIKeyStore(client: db.app).create(name: "dpo", scopes: [.subjectsAdmin]).plaintext
                    let found = try await one.send("POST", "/v1/subjects/find", bearer: dpo, json: ["document": "12345678909"])
                    let reference = try #require(found["subjectReference"] as? String)
                    let erased = try await one.send(
                        "DELETE", "/v1/subjects/\(reference)", bearer: dpo, json: ["reason": "LGPD request"])
                    #expect(erased.status == 200, "\(erased.text)")

                    let again = try await two.send("POST", "/v1/journeys", bearer: two.writer, json: body)
                    #expect(again.status == 410 && again.code == "subject_erased", "refused at once: \(again.text)")
                }
            }
        }
    }
}
