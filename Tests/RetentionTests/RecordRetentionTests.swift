import DataSubjects
import Foundation
import JourneyEngine
import JourneyTesting
import Postgres
import Retention
import Testing

/// Issue 23: retention deletes idempotency keys answered or released long ago (never one in
/// progress) and webhook deliveries delivered or given up long ago (a resend before its original).
@Suite struct RecordRetentionTests {
    @Test func oldKeysAndDeliveriesAreDeletedAndRecentOnesKept() async throws {
        try await TestStack.with { stack in
            let db = stack.database
            let now = Date()
            let old = now.addingTimeInterval(-31 * 86_400), recent = now.addingTimeInterval(-29 * 86_400)
            let apiKey = UUID()
            try await db.owner.query(
                """
                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                VALUES (\(apiKey), 'retention', 'abcdefgh', sha256('x'), ARRAY['journeys:write'])
                """)
            for (key, state, completed) in [
                ("old-done", "completed", old), ("old-released", "released", old),
                ("recent-done", "completed", recent),
            ] {
                try await db.owner.query(
                    """
                    INSERT INTO idempotency_keys (api_key_id, key, request_hash, state, journey_id, outcome,
                                                  created_at, completed_at)
                    VALUES (\(apiKey), \(key), sha256(\(key)::bytea), \(state), 'j', '{}', \(completed), \(completed))
                    """)
            }
            try await db.owner.query(
                """
                INSERT INTO idempotency_keys (api_key_id, key, request_hash, journey_id, created_at)
                VALUES (\(apiKey), 'old-in-progress', sha256('p'), 'j', \(old))
                """)
            let endpoint = UUID()
            try await db.owner.query(
                """
                INSERT INTO webhook_endpoints (id, api_key_id, url, secret_sealed, secret_key_id)
                VALUES (\(endpoint), \(apiKey), 'https://example.com/h', decode(repeat('00', 32), 'hex'), 'k1')
                """)
            let original = UUID(), resend = UUID()
            func delivery(_ id: UUID, _ message: String, delivered: Date?, givenUp: Date?, next: Date?, resendOf: UUID? = nil)
                async throws
            {
                try await db.owner.query(
                    """
                    INSERT INTO webhook_deliveries (id, endpoint_id, message_id, event_type, payload, created_at, delivered_at,
                                                    given_up_at, next_attempt_at, resend_of)
                    VALUES (\(id), \(endpoint), \(message), 'journey.completed', '{}', \(old), \(nullable: delivered), \(nullable: givenUp), \(nullable: next), \(nullable: resendOf))
                    """)
            }
            try await delivery(original, "m1", delivered: old, givenUp: nil, next: nil)
            try await delivery(resend, "m1", delivered: old, givenUp: nil, next: nil, resendOf: original)
            try await delivery(UUID(), "m2", delivered: nil, givenUp: old, next: nil)
            try await delivery(UUID(), "m3", delivered: recent, givenUp: nil, next: nil)
            try await delivery(UUID(), "m4", delivered: nil, givenUp: nil, next: now)

            let journeys = Journeys(database: db.app, dependencies: stack.dependencies.engine)
            let retention = try Retention(
                configuration: .init(batchSize: 1), subjects: DataSubjects(journeys: journeys),
                readModels: db.projector)
            let plan = try await retention.plan(now: now)
            #expect(plan.idempotencyKeysToDelete == 2)
            #expect(plan.webhookDeliveriesToDelete == 3)
            let outcome = try await retention.apply(now: now)
            #expect(outcome.idempotencyKeysDeleted == 2)
            #expect(outcome.webhookDeliveriesDeleted == 3, "the resend first, then its original, in one run")
            let keys = try await db.owner.query("SELECT key FROM idempotency_keys ORDER BY key").map {
                try $0.decode(0, as: String.self)
            }
            #expect(keys == ["old-in-progress", "recent-done"])
            let messages = try await db.owner.query("SELECT message_id FROM webhook_deliveries ORDER BY message_id")
                .map { try $0.decode(0, as: String.self) }
            #expect(messages == ["m3", "m4"])
            #expect(try await retention.apply(now: now).total == 0)
        }
    }

    @Test func keyDaysHaveADefaultAVariableAndOutliveTheAnswer() throws {
        let defaults = Retention.Configuration()
        #expect(defaults.idempotencyKeyDays == 30 && defaults.webhookDeliveryDays == 30)
        let set = try Retention.Configuration.fromEnvironment([
            "JOURNEYS_RETENTION_IDEMPOTENCY_KEY_DAYS": "7",
            "JOURNEYS_RETENTION_WEBHOOK_DELIVERY_DAYS": "90",
        ])
        #expect(set.idempotencyKeyDays == 7 && set.webhookDeliveryDays == 90)
        let error = #expect(throws: RetentionError.self) {
            try Retention.Configuration(idempotencyAnswerHours: 72, idempotencyKeyDays: 2).validate()
        }
        #expect(error?.field == "idempotencyKeyDays")
        #expect(throws: RetentionError.self) {
            try Retention.Configuration.fromEnvironment(["JOURNEYS_RETENTION_WEBHOOK_DELIVERY_DAYS": "0"])
        }
    }
}
