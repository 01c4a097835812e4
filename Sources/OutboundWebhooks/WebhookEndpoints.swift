import Foundation
import Postgres

/// Registers and reads webhook endpoints (one or more per API key).
public enum WebhookEndpoints {
    /// Creates an endpoint for `apiKeyID`; returns its id.
    @discardableResult
    public static func create(id: UUID = UUID(), apiKeyID: UUID, url: String, secret: WebhookSecret,
                              on connection: PostgresConnection) throws -> UUID {
        try connection.query("""
            INSERT INTO webhook_endpoints (id, api_key_id, url, secret)
            VALUES (\(id), \(apiKeyID), \(url), \(secret.text))
            """)
        return id
    }

    /// When and why the endpoint was disabled, or nil while it is enabled.
    public static func disabled(_ id: UUID, on connection: PostgresConnection) throws -> (at: Date, reason: String)? {
        let rows = try connection.query("""
            SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = \(id)
            """)
        guard let row = rows.first, let at = try row.decode("disabled_at", as: Date?.self) else { return nil }
        return (at, try row.decode("disabled_reason", as: String.self))
    }
}
