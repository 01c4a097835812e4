import Foundation
import Postgres

/// Tenants in the `tenants` table: create and list; `default` always exists.
public struct TenantStore: Sendable {
    public let client: PostgresClient
    private let now: @Sendable () -> Date

    /// `now` stamps creation; tests pass a controllable clock.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// Creates tenant `name`; `invalid_argument` for a bad name, `tenant_exists` when it exists.
    public func create(name: String) async throws -> Tenant {
        let name = try Tenant.validName(name)
        do {
            let rows = try await client.query(AccessControlStatements.insertTenant(name: name, createdAt: now()))
            guard let row = rows.first else { throw PostgresError(.decodingFailed, "tenants returned no row") }
            return try Self.decode(row)
        } catch let error as PostgresError where error.code == .uniqueViolation {
            throw AccessError(.tenantExists, "tenant '\(name)' already exists")
        }
    }

    /// Every tenant, oldest first.
    public func list() async throws -> [Tenant] {
        try await client.query(AccessControlStatements.listTenants).map(Self.decode)
    }

    /// `name` when that tenant exists; `invalid_argument` for a bad name, `tenant_not_found` naming it otherwise.
    public func existing(_ name: String) async throws -> String {
        let name = try Tenant.validName(name)
        guard try await client.query(AccessControlStatements.tenant(name: name)).first != nil else {
            throw AccessError(.tenantNotFound, "no tenant is named '\(name)' (journeys tenants list)")
        }
        return name
    }

    static func decode(_ row: PostgresRow) throws -> Tenant {
        Tenant(name: try row.decode("name"), createdAt: try row.decode("created_at"))
    }
}
