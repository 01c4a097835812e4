import Testing
import Cryptography
import Foundation
import JourneyTesting
import OutboundWebhooks
import Postgres

/// A migrated database with one API key and one endpoint at a live receiver.
struct Fixture: Sendable {
    let db: TestDatabase
    let clock: TestClock
    let receiver: Receiver
    let secret: WebhookSecret
    let sealer: WebhookSecretSealer
    let apiKeyID: UUID
    let endpointID: UUID

    /// `events`: what the endpoint subscribes to; the journey endings by default (what endpoints
    /// received before subscriptions), nil for every type.
    static func with(
        events: [JourneyWebhookEventType]? = [.journeyCompleted, .journeyAbandoned],
        _ body: (Fixture) async throws -> Void
    ) async throws {
        let db = try await TestDatabase.create()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let secret = WebhookSecret.generate()
        let sealer = try WebhookSecretSealer(activeKeyID: "test-kek-1", keys: ["test-kek-1": SecureRandom.bytes(32)])
        let receiver = Receiver(secret: secret, clock: clock)
        do {
            let url = try receiver.start()
            let apiKeyID = UUID()
            let endpointID = try await db.app.transaction { connection in
                let hash = SHA256.hash("key")
                try connection.query(
                    """
                    INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                    VALUES (\(apiKeyID), 'company', 'abcdefgh', \(hash), ARRAY['journeys:write'])
                    """)
                return try WebhookEndpoints.create(
                    apiKeyID: apiKeyID, url: url, secret: secret, sealer: sealer,
                    eventTypes: events, destinations: .loopback, on: connection)
            }
            try await body(
                Fixture(
                    db: db, clock: clock, receiver: receiver, secret: secret, sealer: sealer,
                    apiKeyID: apiKeyID, endpointID: endpointID))
        } catch {
            await receiver.stop()
            await db.drop()
            throw error
        }
        await receiver.stop()
        await db.drop()
    }

    func dispatcher(
        owner: String = "d1", random: @escaping @Sendable () -> Double = { 0.5 },
        configuration: WebhookDispatcher.Configuration = .init(requestTimeout: 5, leaseDuration: 30),
        destinations: WebhookDestinationPolicy = .loopback
    ) -> WebhookDispatcher {
        let clock = clock
        var configuration = configuration
        configuration.destinations = destinations
        return WebhookDispatcher(
            client: db.app, sealer: sealer, configuration: configuration, owner: owner,
            now: { clock.now() }, random: random)
    }

    func enqueue(_ messageID: String, endpointID: UUID? = nil) async throws {
        let endpoint = endpointID ?? self.endpointID
        let now = clock.now()
        _ = try await db.app.transaction { connection in
            try WebhookOutbox.enqueue(
                endpointID: endpoint, messageID: messageID, type: "journey.completed",
                payload: JSONB(text: #"{"journeyID": "j-1", "outcome": "completed"}"#),
                now: now, on: connection)
        }
    }

    struct DeliveryState: Sendable {
        var attempts: Int
        var nextAttemptAt: Date?
        var deliveredAt: Date?
        var givenUpAt: Date?
        var lastStatus: Int?
        var lastError: String?
    }

    func delivery(_ messageID: String) async throws -> DeliveryState {
        let rows = try await db.app.query(
            """
            SELECT attempt_count, next_attempt_at, delivered_at, given_up_at, last_status, last_error
            FROM webhook_deliveries WHERE message_id = \(messageID)
            """)
        let row = try #require(rows.first)
        return DeliveryState(
            attempts: try row.decode("attempt_count"), nextAttemptAt: try row.decode("next_attempt_at"),
            deliveredAt: try row.decode("delivered_at"), givenUpAt: try row.decode("given_up_at"),
            lastStatus: try row.decode("last_status"), lastError: try row.decode("last_error"))
    }
}
