import Foundation
import Postgres

/// The statements of `WebhookSecretRewrap` (KEK rotation, run as the schema owner).
extension OutboundWebhooksStatements {
    /// Sealed secrets per KEK id.
    static func sealedSecretsByKEK() -> PostgresQuery {
        """
        SELECT secret_key_id, count(*) FROM webhook_endpoints WHERE secret_sealed IS NOT NULL GROUP BY secret_key_id
        """
    }

    /// Sealed secrets not under `activeKeyID` (and under `keyID` when given), after `cursor` in id order.
    static func secretsToReseal(after cursor: UUID, notUnder activeKeyID: String, keyID: String?, limit: Int) -> PostgresQuery {
        """
        SELECT id, secret_sealed, secret_key_id FROM webhook_endpoints
        WHERE secret_sealed IS NOT NULL AND secret_key_id <> \(activeKeyID) AND id > \(cursor)
          AND (\(NullableBind(keyID))::text IS NULL OR secret_key_id = \(NullableBind(keyID)))
        ORDER BY id LIMIT \(limit)
        """
    }

    /// Replaces an endpoint's sealed secret if it still holds `old` under `fromKeyID`.
    static func resealSecret(_ id: UUID, from old: Data, fromKeyID: String, to new: Data, keyID: String) -> PostgresQuery {
        """
        UPDATE webhook_endpoints SET secret_sealed = \(new), secret_key_id = \(keyID)
        WHERE id = \(id) AND secret_sealed = \(old) AND secret_key_id = \(fromKeyID)
        """
    }
}
