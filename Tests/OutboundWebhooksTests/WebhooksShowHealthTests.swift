import AccessControl
import Cryptography
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

/// `journeys webhooks show` says when an endpoint has been failing and when its key is revoked.
@Suite(.serialized) struct WebhooksShowHealthTests {
    @Test func showSaysFailingSinceAndKeyRevoked() async throws {
        try await TestDatabase.with { db in
            let variables = [
                "JOURNEYS_KEK": Base64URL.encode(SecureRandom.bytes(32)), "JOURNEYS_KEK_ID": "kek-2026",
                "JOURNEYS_SUBJECT_REF_KEY": Base64URL.encode(SecureRandom.bytes(32)),
                "DATABASE_URL": db.appURL, "DATABASE_ADMIN_URL": db.ownerURL, "DATABASE_PROJECTOR_URL": db.projectorURL,
            ]
            let key = try await APIKeyStore(client: db.app).create(name: "partner", scopes: [.journeysWrite]).key
            let set = await JourneysCommand.run(
                ["webhooks", "set", key.prefix, "--url", "https://hooks.example.com/j"],
                variables: variables)
            #expect(set.code == 0, "\(set.error)")
            _ = try await db.owner.query("UPDATE webhook_endpoints SET failing_since = '2026-12-01T10:00:00Z'")
            var shown = await JourneysCommand.run(["webhooks", "show", key.prefix], variables: variables)
            #expect(shown.output.contains("enabled, failing since 2026-12-01"), "\(shown.output)")
            _ = try await APIKeyStore(client: db.app).revoke(key.prefix)
            shown = await JourneysCommand.run(["webhooks", "show", key.prefix], variables: variables)
            #expect(shown.output.contains("key revoked, receives nothing"), "\(shown.output)")
        }
    }
}
