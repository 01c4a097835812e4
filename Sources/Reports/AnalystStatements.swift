import Postgres

/// The tenant analysts' functions of migration 0040 (``TenantAnalysts``); values are binds.
enum AnalystStatements {
    static func grant(role: String, tenant: String) -> PostgresQuery {
        "SELECT grant_tenant_analyst(\(role)::name, \(tenant))"
    }

    static func revoke(role: String) -> PostgresQuery {
        "SELECT revoke_tenant_analyst(\(role)::name)"
    }

    static let list: PostgresQuery = "SELECT role_name::text, tenant, granted_at FROM analyst_tenants ORDER BY tenant, role_name"
}
