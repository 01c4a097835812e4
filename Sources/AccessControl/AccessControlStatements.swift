import Foundation
import Postgres

/// Every statement over `api_keys`; values are binds.
enum AccessControlStatements {
    /// The columns ``APIKeyStore/decode(_:)`` reads, by name.
    static let columns = "id, name, prefix, array_to_string(scopes, ',') AS scopes, created_at, last_used_at, revoked_at, tenant"

    static func insertKey(
        id: UUID, name: String, prefix: String, secretHash: Data, scopes: [String], tenant: String,
        createdAt: Date
    ) -> PostgresQuery {
        """
        INSERT INTO api_keys (id, name, prefix, secret_hash, scopes, tenant, created_at)
        VALUES (\(id), \(name), \(prefix), \(secretHash), \(scopes), \(tenant), \(createdAt))
        RETURNING \(unsafeSQL: columns)
        """
    }

    /// Every key, oldest first.
    static let listKeys: PostgresQuery = "SELECT \(unsafeSQL: columns) FROM api_keys ORDER BY created_at, id"

    /// Revokes by id or prefix (either may be nil); a second revocation keeps the first time.
    static func revoke(id: UUID?, prefix: String?, at now: Date) -> PostgresQuery {
        """
        UPDATE api_keys SET revoked_at = coalesce(revoked_at, \(now)) WHERE id = \(nullable: id) OR prefix = \(nullable: prefix)
        RETURNING \(unsafeSQL: columns)
        """
    }

    /// The key with this prefix, with its secret's hash.
    static func keyWithHash(prefix: String) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: columns), secret_hash FROM api_keys WHERE prefix = \(prefix)
        """
    }

    static func key(id: UUID) -> PostgresQuery {
        "SELECT \(unsafeSQL: columns) FROM api_keys WHERE id = \(id)"
    }

    /// Stamps last use unless a use at or after `stale` was already recorded.
    static func touch(id: UUID, at now: Date, unlessUsedAfter stale: Date) -> PostgresQuery {
        """
        UPDATE api_keys SET last_used_at = \(now)
        WHERE id = \(id) AND (last_used_at IS NULL OR last_used_at <= \(stale))
        """
    }

    /// Id and prefix of the keys among `prefixes`, revoked ones included.
    static func keyIDs(prefixes: [String]) -> PostgresQuery {
        "SELECT prefix, id FROM api_keys WHERE prefix = ANY(\(prefixes)::text[])"
    }

    /// Id and revocation of the key with this id or prefix (either may be nil); `FOR UPDATE` with `lock`.
    static func keyReference(id: UUID?, prefix: String?, lock: Bool) -> PostgresQuery {
        """
        SELECT id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = \(nullable: id) OR prefix = \(nullable: prefix)
        \(unsafeSQL: lock ? "FOR UPDATE" : "")
        """
    }

    // MARK: - Tenants

    static func insertTenant(name: String, createdAt: Date) -> PostgresQuery {
        "INSERT INTO tenants (name, created_at) VALUES (\(name), \(createdAt)) RETURNING name, created_at"
    }

    /// Every tenant, oldest first.
    static let listTenants: PostgresQuery = "SELECT name, created_at FROM tenants ORDER BY created_at, name"

    static func tenant(name: String) -> PostgresQuery {
        "SELECT name FROM tenants WHERE name = \(name)"
    }
}
