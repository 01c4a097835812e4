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
        "JOURNEYS_WEBHOOK_ALLOW_HOSTS": "127.0.0.1",
    ]

    func journeys(_ arguments: [String], database: TestDatabase? = nil, extra: [String: String]? = nil) async
        -> (code: Int32, output: String, error: String)
    {
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
        try await TestDatabase.with { db in
            let key = try await APIKeyStore(client: db.app).create(name: "partner", scopes: [.journeysWrite]).key

            let set = await journeys(
                ["webhooks", "set", key.prefix, "--url", "https://hooks.example.com/journeys"], database: db)
            #expect(set.code == 0, "\(set.error)")
            let secret = try #require(WebhookSecret(try field("secret", in: set.output)), "prints a whsec_ secret")
            #expect(set.output.contains("shown only this once"))
            let endpointID = try #require(UUID(uuidString: String(try field("endpoint", in: set.output).prefix(36))))
            #expect(try field("key", in: set.output) == key.id.uuidString.lowercased())

            // Sealed under the configured KEK: the same KEK opens it, to the printed secret.
            let sealer = try WebhookSecretSealer(privacy: try PrivacyConfiguration.fromEnvironment(keys))
            let row = try #require(
                try await db.app.query(
                    """
                    SELECT secret_sealed, secret_key_id FROM webhook_endpoints WHERE id = \(endpointID)
                    """
                ).first)
            #expect(try row.decode(1, as: String.self) == "kek-2026")
            #expect(try sealer.open(try row.decode(0, as: Data.self), keyID: "kek-2026", endpointID: endpointID) == secret)

            let shown = await journeys(["webhooks", "show", key.id.uuidString], database: db)
            #expect(shown.code == 0, "\(shown.error)")
            #expect(shown.output.contains("https://hooks.example.com/journeys") && shown.output.contains("enabled"))
            #expect(!shown.output.contains(secret.text) && !shown.output.contains("whsec_"))

            let again = await journeys(["webhooks", "set", key.prefix, "--url", "http://127.0.0.1:9/hook"], database: db)
            #expect(again.code == 0 && again.output.contains("unchanged") && !again.output.contains("whsec_"), "\(again.error)")
            let rotated = await journeys(
                ["webhooks", "set", key.prefix, "--url", "http://127.0.0.1:9/hook", "--rotate-secret"], database: db)
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
    }

    @Test func badInputExitsNonZeroWithAClearMessage() async throws {
        try await TestDatabase.with { db in
            let key = try await APIKeyStore(client: db.app).create(name: "partner", scopes: [.journeysWrite]).key
            let unknown = key.prefix == "abcdefgh" ? "bcdefghi" : "abcdefgh"
            let cases: [([String], [String: String]?, Int32, String)] = [
                (["webhooks", "set", key.prefix, "--url", "ftp://hooks.example.com"], nil, 64, "--url: url must use https"),
                (
                    ["webhooks", "set", key.prefix, "--url", "http://hooks.example.com/x"], nil, 64,
                    "--url: url must use https (http is allowed for loopback hosts only)"
                ),
                (["webhooks", "set", key.prefix, "--url", "not a url"], nil, 64, "--url: url is not an absolute URL"),
                (
                    [
                        "webhooks", "set", key.prefix, "--url", "https://hooks.example.com", "--events",
                        "journey.started,journey.ended",
                    ],
                    nil, 64, "--events: unknown event type 'journey.ended' (known: journey.started, attempt.capture_opened"
                ),
                (
                    ["webhooks", "set", key.prefix, "--url", "https://169.254.169.254/latest"], nil, 64,
                    "url: host 169.254.169.254 is a cloud metadata address; outbound webhooks refuse it unless JOURNEYS_WEBHOOK_ALLOW_HOSTS names it"
                ),
                (
                    ["webhooks", "set", key.prefix, "--url", "http://127.0.0.1:9/hook"],
                    keys.merging(["JOURNEYS_WEBHOOK_ALLOW_HOSTS": ""]) { $1 }, 64, "is a loopback address"
                ),
                (
                    ["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"],
                    keys.merging(["JOURNEYS_WEBHOOK_ALLOW_HOSTS": "10.0.0.0/99"]) { $1 }, 64,
                    "JOURNEYS_WEBHOOK_ALLOW_HOSTS: '10.0.0.0/99' is not a host name, an IP address or a CIDR block"
                ),
                (["webhooks", "deliveries", key.prefix, "--limit", "0"], nil, 64, "--limit"),
                (["webhooks", "deliveries", unknown], nil, 1, "no API key has the id or prefix"),
                (["webhooks", "resend", "not-a-uuid"], nil, 64, "delivery"),
                (["webhooks", "resend", UUID().uuidString], nil, 1, "no webhook delivery has the id"),
                (["webhooks", "set", key.prefix], nil, 64, "missing required option '--url"),
                (
                    ["webhooks", "set", unknown, "--url", "https://hooks.example.com"], nil, 1,
                    "no API key has the id or prefix '\(unknown)'"
                ),
                (["webhooks", "show", UUID().uuidString], nil, 1, "no API key has the id or prefix"),
                (["webhooks", "disable", "not a key"], nil, 64, "expected an API key id (UUID) or prefix"),
                (["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"], [:], 64, "JOURNEYS_KEK is not set"),
                (
                    ["webhooks", "set", key.prefix, "--url", "https://hooks.example.com"],
                    [
                        "JOURNEYS_KEK": "short", "JOURNEYS_KEK_ID": "k",
                        "JOURNEYS_SUBJECT_REF_KEY": keys["JOURNEYS_SUBJECT_REF_KEY"]!,
                    ],
                    64,
                    "JOURNEYS_KEK"
                ),
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
            for path in [
                ["webhooks", "--help"], ["webhooks", "set", "--help"], ["webhooks", "show", "-h"],
                ["webhooks", "disable", "--help"],
                ["webhooks", "deliveries", "--help"], ["webhooks", "resend", "--help"],
            ] {
                let help = await journeys(path)
                #expect(help.code == 0 && help.output.contains("Usage:"), "\(path)")
            }
            #expect(CommandConfiguration.problems(inTree: JourneysCommand.self).isEmpty)
        }
    }
}

/// `webhooks set --events`, `webhooks deliveries` and `webhooks resend` through the CLI.
@Suite(.serialized) struct WebhookDeliveriesCommandTests {
    let base = WebhooksCommandTests()

    @Test func subscribeListAndResend() async throws {
        try await Fixture.with { f in
            let key = "abcdefgh"
            let set = await base.journeys(
                [
                    "webhooks", "set", key, "--url", "https://hooks.example.com/h",
                    "--events", "journey.completed,attempt.failed",
                ],
                database: f.db, extra: base.keys)
            #expect(set.code == 0, "\(set.error)")
            #expect(try base.field("events", in: set.output) == "journey.completed,attempt.failed")
            let shown = await base.journeys(["webhooks", "show", key], database: f.db)
            #expect(shown.output.contains("journey.completed,attempt.failed"), "\(shown.output)")
            let all = await base.journeys(
                ["webhooks", "set", key, "--url", "https://hooks.example.com/h", "--events", "all"],
                database: f.db)
            #expect(try base.field("events", in: all.output) == "all", "\(all.error)")
            let kept = await base.journeys(["webhooks", "set", key, "--url", "https://hooks.example.com/h"], database: f.db)
            #expect(try base.field("events", in: kept.output) == "all", "unchanged when --events is omitted")

            let none = await base.journeys(["webhooks", "deliveries", key], database: f.db)
            #expect(none.code == 0 && none.output.contains("no webhook deliveries"), "\(none.error)")
            for index in 1...3 { try await f.enqueue("msg_cli_\(index)") }
            let listed = await base.journeys(["webhooks", "deliveries", key, "--limit", "2"], database: f.db)
            #expect(listed.code == 0, "\(listed.error)")
            let lines = listed.output.split(separator: "\n")
            #expect(lines.count == 4, "header, rule and 2 rows: \(listed.output)")
            #expect(lines[0].contains("DELIVERY") && lines[0].contains("NEXT TRY") && lines[0].contains("DELIVERED AT"))
            #expect(listed.output.contains("pending") && !listed.output.contains("whsec_"))

            let id = try await f.db.app.query("SELECT id FROM webhook_deliveries WHERE message_id = 'msg_cli_1'")
                .first!.decode(0, as: UUID.self)
            let early = await base.journeys(["webhooks", "resend", id.uuidString], database: f.db)
            #expect(early.code == 1 && early.error.contains("it is still pending"), "\(early.error)")
            try await f.db.app.query(
                """
                UPDATE webhook_deliveries SET next_attempt_at = NULL, given_up_at = now(), attempt_count = 11,
                    last_status = 503, last_error = 'gave up after 11 attempts: HTTP 503' WHERE id = \(id)
                """)
            let resent = await base.journeys(["webhooks", "resend", id.uuidString], database: f.db)
            #expect(resent.code == 0, "\(resent.error)")
            #expect(try base.field("message", in: resent.output) == "msg_cli_1 (journey.completed)")
            let after = await base.journeys(["webhooks", "deliveries", key, "--limit", "10"], database: f.db)
            #expect(
                after.output.contains("given up") && after.output.contains("HTTP 503")
                    && after.output.contains("resend of \(id.uuidString.lowercased().prefix(8))"), "\(after.output)")
        }
    }
}
