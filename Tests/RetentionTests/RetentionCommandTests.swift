import Cryptography
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

/// `journeys retention run` against a stack's database, with the stack's (development) keys.
@Suite(.serialized) struct RetentionCommandTests {
    /// The development sealing keys the test stack uses, as the environment gives them.
    static let keys: [String: String] = [
        "JOURNEYS_KEK": Base64URL.encode(SHA256.hash("human-token-journeys INSECURE development KEK v1")),
        "JOURNEYS_KEK_ID": "dev-insecure-1",
        "JOURNEYS_SUBJECT_REF_KEY": Base64URL.encode(SHA256.hash("human-token-journeys INSECURE development subject-ref key v1")),
    ]

    func journeys(_ arguments: [String], _ database: TestDatabase, _ extra: [String: String] = [:]) async
        -> (code: Int32, output: String, error: String)
    {
        await JourneysCommand.run(arguments, variables: database.variables.merging(Self.keys) { $1 }.merging(extra) { $1 })
    }

    @Test func runShowsThePlanAppliesItAndRefusesBadSettings() async throws {
        var options = TestStack.Options(time: .system)
        options.emulatorRateLimit = 1000
        try await TestStack.with(options) { stack in
            let db = stack.database
            _ = try await RetentionTests.journey("52998224725", stack: stack, key: "cli")
            _ = try await stack.projections.catchUp()

            let dry = await journeys(["retention", "run", "--dry-run"], db)
            #expect(dry.code == 0, "\(dry.error)")
            #expect(dry.output.contains("would erase 0 subject(s)"))
            #expect(dry.output.contains("retention: 365 days after the last journey ended"))
            let json = await journeys(["retention", "run", "--dry-run", "--json"], db)
            #expect(json.code == 0, "\(json.error)")
            let plan = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect(plan?["subjectsToErase"] as? [String] == [])
            #expect(plan?["idempotencyAnswersToPurge"] as? Int == 0)

            let run = await journeys(["retention", "run"], db)
            #expect(run.code == 0, "\(run.error)")
            #expect(run.output.contains("erased 0 subject(s)"))
            #expect(run.output.contains("total: 0"))
            let outcome = await journeys(["retention", "run", "--json"], db)
            #expect(
                (try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])?["subjectsErased"]
                    as? [String] == [])

            let bad = await journeys(["retention", "run", "--dry-run"], db, ["JOURNEYS_RETENTION_TOKEN_DAYS": "soon"])
            #expect(bad.code == 64)
            #expect(bad.error.contains("JOURNEYS_RETENTION_TOKEN_DAYS"))
            let off = await journeys(["retention", "run"], db, ["JOURNEYS_RETENTION": "off"])
            #expect(off.code == 64)
            #expect(off.error.contains("JOURNEYS_RETENTION=off"))
            #expect(await journeys(["retention", "run", "--dry-run"], db, ["JOURNEYS_RETENTION": "off"]).code == 0)
            let help = await journeys(["retention", "run", "--help"], db)
            #expect(help.output.contains("--dry-run"))
        }
    }
}
