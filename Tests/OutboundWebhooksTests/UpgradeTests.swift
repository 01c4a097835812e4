import EventStore
import Foundation
import JourneyTesting
import Migrations
import OutboundWebhooks
import Postgres
import Testing

/// Migration 0010 on a database that already has endpoints with plain secrets and ended journeys.
@Suite(.serialized) struct UpgradeTests {
    @Test func plainSecretsAreDroppedAndHistoryIsNotReplayed() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let before = SchemaFiles.all.filter { ($0.version ?? 0) < 10 }
            try await Migrator(files: before).migrate(db.owner)
            let plain = WebhookSecret.generate()
            let endpointID = UUID()
            try await db.owner.query(
                """
                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                VALUES (\(UUID()), 'company', 'abcdefgh', \(Data(repeating: 1, count: 32)), ARRAY['journeys:write'])
                """)
            try await db.owner.query(
                """
                INSERT INTO webhook_endpoints (id, api_key_id, url, secret)
                SELECT \(endpointID), id, 'https://hooks.example.com/x', \(plain.text) FROM api_keys
                """)
            let journeys = Journeys(db, clock: TestClock(Date(timeIntervalSince1970: 1_800_000_000)))
            try await journeys.complete()
            try await journeys.waitUntilReadable()
            let last = try #require(try await EventStore(client: db.owner).readAll(after: .start, limit: 1000).last)

            try await Migrator().migrate(db.owner)

            #expect(
                try await JourneyWebhookFollower.checkpoint(client: db.app) == last.checkpoint,
                "the follower starts at the end of the log as it was")
            let disabled = try await db.app.withConnection { try WebhookEndpoints.disabled(endpointID, on: $0) }
            #expect(disabled?.reason == "secret must be re-issued: journeys webhooks set")
            let dump = try await db.superuser.query("SELECT to_jsonb(e)::text FROM webhook_endpoints e").first!.decode(
                0, as: String.self)
            #expect(!dump.contains(plain.text))
            #expect(try await JourneyWebhookFollower(client: db.owner).catchUp() == 0)

            // `webhooks set` gives the endpoint a sealed secret and enables it again.
            let sealer = try WebhookSecretSealer(activeKeyID: "k1", keys: ["k1": Data(repeating: 3, count: 32)])
            let result = try await WebhookEndpointStore(client: db.app, sealer: sealer).set(
                key: "abcdefgh", url: "https://hooks.example.com/y")
            #expect(result.endpoint.id == endpointID && result.endpoint.isEnabled && result.newSecret != nil)
        }
    }

    /// Migration 0020: endpoints that exist keep exactly the two types they received; new ones get all.
    @Test func existingEndpointsKeepTheEndingsOnly() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await Migrator(files: SchemaFiles.all.filter { ($0.version ?? 0) < 20 }).migrate(db.owner)
            let keyID = UUID()
            let sealer = try WebhookSecretSealer(activeKeyID: "k1", keys: ["k1": Data(repeating: 3, count: 32)])
            try await db.owner.query(
                """
                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                VALUES (\(keyID), 'company', 'abcdefgh', \(Data(repeating: 1, count: 32)), ARRAY['journeys:write'])
                """)
            let endpointID = UUID()
            let (sealed, kek) = try sealer.seal(WebhookSecret.generate(), endpointID: endpointID)
            try await db.owner.query(
                """
                INSERT INTO webhook_endpoints (id, api_key_id, url, secret_sealed, secret_key_id)
                VALUES (\(endpointID), \(keyID), 'https://hooks.example.com/x', \(sealed), \(kek))
                """)
            try await Migrator().migrate(db.owner)
            let existing = try await db.app.withConnection { try WebhookEndpoints.list(apiKeyID: keyID, on: $0) }
            #expect(existing.first?.eventTypes == ["journey.completed", "journey.abandoned"])
            let newID = try await db.app.withConnection {
                try WebhookEndpoints.create(
                    apiKeyID: keyID, url: "https://hooks.example.com/y", secret: WebhookSecret.generate(),
                    sealer: sealer, on: $0)
            }
            let created = try await db.app.withConnection { try WebhookEndpoints.list(apiKeyID: keyID, on: $0) }.first {
                $0.id == newID
            }
            #expect(created?.eventTypes == nil, "a new endpoint receives every type")
        }
    }
}
