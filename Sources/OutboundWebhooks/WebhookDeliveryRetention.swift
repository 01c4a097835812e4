import Foundation
import Postgres

/// The outbound webhooks' part of the retention policy: `webhook_deliveries` is this module's
/// table, so finished deliveries leave through here.
public enum WebhookDeliveryRetention {
    /// How many deliveries were delivered or given up before `cutoff`.
    public static func count(finishedBefore cutoff: Date, on client: PostgresClient) async throws -> Int {
        try await client.query(WebhookRetentionStatements.deliveriesDue(before: cutoff)).first?.decode(0, as: Int.self) ?? 0
    }

    /// Deletes up to `limit` of those that no resend names, oldest first; how many.
    public static func delete(finishedBefore cutoff: Date, limit: Int, on client: PostgresClient) async throws -> Int {
        try await client.query(WebhookRetentionStatements.deleteDeliveries(before: cutoff, limit: limit)).first?
            .decode(0, as: Int.self) ?? 0
    }
}
