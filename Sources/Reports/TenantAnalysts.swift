import Foundation
import Postgres

/// Database roles confined to one tenant's rows of the analyst views and the daily rollups
/// (migration 0040: row-level security with one policy per role and table, the tenant a literal).
///
/// Run as the schema's owner (`DATABASE_ADMIN_URL`). The login role is created beforehand by a
/// superuser (`CREATE ROLE acme_analyst LOGIN PASSWORD '…'`); a superuser, a role with BYPASSRLS,
/// and a member of a service role (`journeys_owner`, `journeys_app`, `journeys_projector`,
/// `journeys_analyst`) are refused, since they would read every tenant anyway.
public enum TenantAnalysts {
    /// One confined role.
    public struct Grant: Sendable, Equatable {
        public let role: String
        public let tenant: String
        public let grantedAt: Date
    }

    /// Confines `role` to `tenant` (again: moves it to that tenant).
    public static func grant(role: String, tenant: String, on client: PostgresClient) async throws {
        do {
            _ = try await client.query(AnalystStatements.grant(role: role, tenant: tenant))
        } catch let error as PostgresError where error.sqlState == "42704" || error.sqlState == "22023" {
            throw ReportError(.invalidValue, parameter: error.sqlState == "42704" ? "role" : "tenant", error.message)
        }
    }

    /// Takes the role's grants and policies away; false when it was not a tenant analyst.
    public static func revoke(role: String, on client: PostgresClient) async throws -> Bool {
        try await client.query(AnalystStatements.revoke(role: role)).first?.decode(0, as: Bool.self) ?? false
    }

    /// Every confined role, by tenant then role.
    public static func list(on client: PostgresClient) async throws -> [Grant] {
        try await client.query(AnalystStatements.list).map {
            Grant(role: try $0.decode(0), tenant: try $0.decode(1), grantedAt: try $0.decode(2))
        }
    }
}
