import AccessControl
import CLI
import Cryptography
import Foundation
import JourneyCommands
import JourneyTesting
import OutboundWebhooks
import Postgres
import Privacy
import Testing

/// `journeys webhooks` end to end, in-process, against a test database.
@Suite(.serialized) struct WebhooksCommandTests {
    /// KEK settings as a deployment sets them.
    let keys: [String: String] = [
        "JOURNEYS_KEK": Base64URL.encode(SecureRandom.bytes(32)),
        "JOURNEYS_KEK_ID": "kek-2026",
        "JOURNEYS_SUBJECT_REF_KEY": Base64URL.encode(SecureRandom.bytes(32)),
    ]

    func journeys(_ arguments: [String], database: TestDatabase? = nil, extra: [String: String]? = nil) async
        -> (code: Int32, output: String, error: String) {
        var variables = extra ?? keys
        if let database {
            variables["DATABASE_URL"] = database.appURL
            variables["DATABASE_ADMIN_URL"] = database.ownerURL
            variables["DATABASE_PROJECTOR_URL"] = database.projectorURL
        }
        return await JourneysCommand.run(arguments, variables: variables)
    }

    func field(_ label: String, in output: String) throws -> String {
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix(label + ":") })
        return line.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
    }

    @Test func setShowAndDisable() async throws {
        let db = try await TestDatabase.create()
        defer { Task { await db.drop() } }
        let key = try await APIKeyStore(client: db.app).create(name: "partner", scopes: [.journeysWrite]).key

        let set = await journeys(["webhooks", "set", key.prefix, "--url", "https://hooks.example.com/journeys"], database: db)
        #expect(set.code == 0, "\(set.error)")
        let secret = try #require(WebhookSecret(try field("secret", in: set.output)), "prints a whsec_ secret")
        #expect(set.output.contains("shown only this once"))
        let endpointID = try #require(UUID(uuidString: String(try field("endpoint", in: set.output).prefix(36))))
        #expect(try field("key", in: set.output) == key.id.uuidString.lowercased())

        // Sealed under the configured KEK: the same KEK opens it, to the printed secret.
        let sealer = try WebhookSecretSealer(privacy: try PrivacyConfiguration.fromEnvironment(keys))
        let row = try #require(try await db.app.query("""
            SELECT secret_sealed, secret_key_id FROM webhook_endpoints WHERE id = \(endpointID)
            """).first)
        #expect(try row.decode(1, as: String.self) == "kek-2026")
        #expect(try sealer.open(try row.decode(0, as: Data.self), keyID: "kek-2026", endpointID: endpointID) == secret)

        let shown = await journeys(["webhooks", "show", key.id.uuidString], database: db)
        #expect(shown.code == 0, "\(shown.error)")
        #expect(shown.output.contains("https://hooks.example.com/journeys") && shown.output.contains("enabled"))
        #expect(!shown.output.contains(secret.text) && !shown.output.contains("whsec_"))

        let again = await journeys(["webhooks", "set", key.prefix, "--url", "http://127.0.0.1:9/hook"], database: db)
        #expect(again.code == 0 && again.output.contains("unchanged") && !again.output.contains("whsec_"), "\(again.error)")
        let rotated = await journeys(["webhooks", "set", key.prefix, "--url", "http://127.0.0.1:9/hook", "--rotate-secret"], database: db)
        #expect(rotated.code == 0, "\(rotated.error)")
        #expect(try field("secret", in: rotated.output) != secret.text)

        let disabled = await journeys(["webhooks", "disable", key.prefix], database: db)
        #expect(disabled.code == 0 && disabled.output.contains("disabled 1 endpoint(s)"), "\(disabled.error)")
        let reshown = await journeys(["webhooks", "show", key.prefix], database: db)
        #expect(reshown.output.contains("disabled by an operator"))

        let other = try await APIKeyStore(client: db.app).create(name: "other", scopes: [.journeysRead]).key
        let none = await journeys(["webhooks", "show", other.prefix], database: db)
        #expect(none.code == 0 && none.output.contains("no webhook endpoint"), "\(none.error)")
    }

    @Test func badInputExitsNonZeroWithAClearMessage() async throws {
        let db = try await TestDatabase.create()
        defer { Task { await db.drop() } }
        let key = try await APIKeyStore(client: db.app).create(name: "partner", scopes: [.journeysWrite]).key
        let unknown = key.prefix == "abcdefgh" ? "bcdefghi" : "abcdefgh"
        let cases: [([String], [String: String]?, Int32, String)] = [
            (["webhooks", "set", key.prefix, "--url", "ftp://hooks.example.com"], nil, 64, "--url: url must use https"),
            (["webhooks", "set", key.prefix, "--url", "http://hooks.example.com/x"], nil, 64,
             "--url: url must use https (http is allowed for loopback hosts only)"),
            (["webhooks", "set", key.prefix, "--url", "not a url"], nil, 64, "--url: url is not an absolute URL"),
            (["webhooks", "set", key.prefix], nil, 64, "missing required option '--url"),
            (["webhooks", "set", unknown, "--url", "https://hooks.example.com"], nil, 1,
             "no API key has the id or prefix '\(unknown)'"),
            (["webhooks", "show", UUID().uuidString], nil, 1, "no API key has the id or prefix"),
            (["webhooks", "disable", "not a key"], nil, 64, "expected an API key id (UUID) or prefix"),
            (["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"], [:], 64, "JOURNEYS_KEK is not set"),
            (["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"],
             ["JOURNEYS_KEK": "short", "JOURNEYS_KEK_ID": "k", "JOURNEYS_SUBJECT_REF_KEY": keys["JOURNEYS_SUBJECT_REF_KEY"]!], 64,
             "JOURNEYS_KEK"),
        ]
        for (arguments, extra, code, message) in cases {
            let result = await journeys(arguments, database: db, extra: extra)
            #expect(result.code == code, "\(arguments): \(result.error)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
        #expect(try await db.app.query("SELECT count(*) FROM webhook_endpoints").first!.decode(0, as: Int.self) == 0)
        try await db.app.query("UPDATE api_keys SET revoked_at = now() WHERE id = \(key.id)")
        let revoked = await journeys(["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"], database: db)
        #expect(revoked.code == 64 && revoked.error.contains("is revoked"), "\(revoked.error)")
        for path in [["webhooks", "--help"], ["webhooks", "set", "--help"], ["webhooks", "show", "-h"], ["webhooks", "disable", "--help"]] {
            let help = await journeys(path)
            #expect(help.code == 0 && help.output.contains("Usage:"), "\(path)")
        }
        #expect(CommandConfiguration.problems(inTree: JourneysCommand.self).isEmpty)
    }
}
