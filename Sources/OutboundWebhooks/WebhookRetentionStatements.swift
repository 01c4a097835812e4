import Foundation
import Postgres

/// The statements of ``WebhookDeliveryRetention``; values are binds.
enum WebhookRetentionStatements {
    /// How many deliveries were delivered or given up before `cutoff`.
    static func deliveriesDue(before cutoff: Date) -> PostgresQuery {
        """
        SELECT count(*)::int FROM webhook_deliveries
        WHERE (delivered_at IS NOT NULL OR given_up_at IS NOT NULL) AND coalesce(delivered_at, given_up_at) < \(cutoff)::timestamptz
        """
    }

    /// Deletes up to `limit` of those no resend names, oldest first (migration 0041's definer function).
    static func deleteDeliveries(before cutoff: Date, limit: Int) -> PostgresQuery {
        "SELECT purge_webhook_deliveries(\(cutoff)::timestamptz, \(limit)::int)"
    }
}
