import Foundation
import JourneyTesting
import Postgres
import Projections
import Reports
import Testing

/// Migration 0040: per-tenant analysts confined by row-level security, connected as themselves;
/// `journeys_analyst` keeps reading every tenant, and a projection rebuild keeps the confinement.
@Suite struct TenantAnalystTests {
    @Test func analystOfOneTenantReadsNothingOfAnother() async throws {
        try await TestDatabase.with { db in
            try await db.owner.query("INSERT INTO tenants (name) VALUES ('acme'), ('globex')")
            for (journey, tenant) in [("ja", "acme"), ("jb", "globex"), ("jb2", "globex")] {
                try await db.projector.query(
                    """
                    INSERT INTO journey_state (journey_id, tenant, status, started_at, version, updated_position, state)
                    VALUES (\(journey), \(tenant), 'started', '2026-03-01T10:00:00Z', 1, 1, '{}')
                    """)
                try await db.projector.query(
                    "INSERT INTO journey_attempts (journey_id, attempt, requested_at) VALUES (\(journey), 1, now())")
                try await db.projector.query(
                    """
                    INSERT INTO journey_daily VALUES ('2026-03-01', 'UAT', \(tenant), \(journey), '', 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0)
                    """)
            }
            let a = try await AnalystLogin(db, suffix: "a")
            let b = try await AnalystLogin(db, suffix: "b")
            defer { a.close(); b.close() }
            try await TenantAnalysts.grant(role: a.role, tenant: "acme", on: db.owner)
            try await TenantAnalysts.grant(role: b.role, tenant: "globex", on: db.owner)

            #expect(try await ids(a.client, "SELECT journey_id FROM analyst_journeys") == ["ja"])
            #expect(try await ids(a.client, "SELECT tenant FROM analyst_journeys") == ["acme"])
            #expect(try await ids(a.client, "SELECT journey_id || ':' || tenant FROM analyst_attempts") == ["ja:acme"])
            #expect(try await ids(a.client, "SELECT flow FROM journey_daily") == ["ja"])
            #expect(try await ids(a.client, "SELECT journey_id FROM analyst_journeys WHERE tenant = 'globex'") == [])
            #expect(try await ids(a.client, "SELECT journey_id FROM journey_state") == ["ja"])
            #expect(try await ids(a.client, "SELECT journey_id FROM journey_attempts WHERE journey_id LIKE 'jb%'") == [])
            #expect(try await ids(b.client, "SELECT journey_id FROM analyst_journeys") == ["jb", "jb2"])
            #expect(try await ids(b.client, "SELECT journey_id FROM analyst_attempts") == ["jb", "jb2"])
            #expect(try await ids(b.client, "SELECT flow FROM journey_daily") == ["jb", "jb2"])

            // Nothing beyond the analyst views' columns, and nothing else at all.
            for statement: PostgresQuery in [
                "SELECT state FROM journey_state", "SELECT subject_reference FROM journey_state",
                "SELECT * FROM analyst_projections", "SELECT * FROM events", "SELECT * FROM analyst_tenants",
                "SELECT * FROM api_keys", "UPDATE journey_daily SET journeys = 0",
            ] {
                let error = await captureError { try await a.client.query(statement) } as? PostgresError
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }

            // The all-tenants analyst and the application still read every tenant.
            let analyst = try PostgresClient(url: db.analystURL, configuration: .init(maxConnections: 1))
            defer { analyst.close() }
            #expect(try await ids(analyst, "SELECT journey_id FROM analyst_journeys") == ["ja", "jb", "jb2"])
            #expect(try await ids(analyst, "SELECT tenant FROM analyst_attempts") == ["acme", "globex", "globex"])
            #expect(try await ids(analyst, "SELECT flow FROM journey_daily") == ["ja", "jb", "jb2"])
            #expect(try await ids(db.app, "SELECT journey_id FROM journey_state") == ["ja", "jb", "jb2"])

            // Moved to another tenant, then revoked.
            try await TenantAnalysts.grant(role: a.role, tenant: "globex", on: db.owner)
            #expect(try await ids(a.client, "SELECT journey_id FROM analyst_journeys") == ["jb", "jb2"])
            #expect(
                try await TenantAnalysts.list(on: db.owner).map { "\($0.role):\($0.tenant)" }.sorted()
                    == ["\(a.role):globex", "\(b.role):globex"].sorted())
            #expect(try await TenantAnalysts.revoke(role: a.role, on: db.owner))
            #expect(try await TenantAnalysts.revoke(role: a.role, on: db.owner) == false)
            let revoked =
                await captureError { try await a.client.query("SELECT journey_id FROM analyst_journeys") } as? PostgresError
            #expect(revoked?.code == .insufficientPrivilege)
            try await a.dropRole()
            try await b.dropRole()
        }
    }

    @Test func rolesThatWouldSeeEveryTenantAreRefused() async throws {
        try await TestDatabase.with { db in
            for (role, tenant, parameter) in [
                ("journeys_analyst", "default", "tenant"), ("journeys_app", "default", "tenant"),
                ("postgres", "default", "tenant"), ("no_such_role_x", "default", "role"),
            ] {
                let error =
                    await captureError { try await TenantAnalysts.grant(role: role, tenant: tenant, on: db.owner) }
                    as? ReportError
                #expect(error?.parameter == parameter, "\(role)")
            }
            let login = try await AnalystLogin(db, suffix: "c")
            defer { login.close() }
            let unknown = await captureError { try await TenantAnalysts.grant(role: login.role, tenant: "nobody", on: db.owner) }
            #expect((unknown as? ReportError)?.message.contains("tenant nobody does not exist") == true)
            // A role mapped to nothing reads no row even when granted the views by hand.
            try await db.owner.query(PostgresQuery(unsafeSQL: "GRANT SELECT ON analyst_journeys TO \(login.role)"))
            let columns = try #require(
                try await db.owner.query("SELECT analyst_columns('journey_state')").first?.decode(0, as: String.self))
            try await db.owner.query(PostgresQuery(unsafeSQL: "GRANT SELECT (\(columns)) ON journey_state TO \(login.role)"))
            try await db.projector.query(
                """
                INSERT INTO journey_state (journey_id, status, version, updated_position, state) VALUES ('j1', 'started', 1, 1, '{}')
                """)
            #expect(try await ids(login.client, "SELECT journey_id FROM analyst_journeys") == [])
            try await login.dropRole()
        }
    }

    @Test func confinementHoldsAcrossAProjectionRebuild() async throws {
        try await TestDatabase.with { db in
            try await VariedHistory.build(db)
            try await db.owner.query("INSERT INTO tenants (name) VALUES ('globex')")
            let mine = try await AnalystLogin(db, suffix: "d")
            let other = try await AnalystLogin(db, suffix: "e")
            defer { mine.close(); other.close() }
            try await TenantAnalysts.grant(role: mine.role, tenant: "default", on: db.owner)
            try await TenantAnalysts.grant(role: other.role, tenant: "globex", on: db.owner)
            let counts = [
                "SELECT count(*)::text FROM analyst_journeys", "SELECT count(*)::text FROM analyst_attempts",
                "SELECT coalesce(sum(journeys), 0)::text FROM journey_daily",
                "SELECT coalesce(sum(attempts), 0)::text FROM journey_daily_sdk_errors",
                "SELECT coalesce(sum(journeys), 0)::text FROM journey_daily_time_to_result",
                "SELECT coalesce(sum(journeys), 0)::text FROM journey_daily_result_bins",
            ]
            let all = try await counts.asyncMap { try await ids(db.owner, PostgresQuery(unsafeSQL: $0)) }
            #expect(all[0] == ["\(VariedHistory.count)"])
            for round in 0..<2 {
                if round == 1 { _ = try await ProjectionRebuilder(client: db.owner).rebuild(name: "journey_state") { _, _ in } }
                for (index, sql) in counts.enumerated() {
                    #expect(try await ids(mine.client, PostgresQuery(unsafeSQL: sql)) == all[index], "\(sql) round \(round)")
                    #expect(try await ids(other.client, PostgresQuery(unsafeSQL: sql)) == ["0"], "\(sql) round \(round)")
                }
            }
            try await mine.dropRole()
            try await other.dropRole()
        }
    }

    private func ids(_ client: PostgresClient, _ query: PostgresQuery) async throws -> [String] {
        try await client.query(query).map { try $0.decode(0, as: String.self) }.sorted()
    }
}

/// A login role of this test's own (roles are the cluster's), connected over the socket.
private struct AnalystLogin {
    let role: String
    let client: PostgresClient
    let db: TestDatabase

    init(_ db: TestDatabase, suffix: String) async throws {
        self.db = db
        role = "ta_\(db.name)_\(suffix)"
        let password = UUID().uuidString
        try await db.superuser.query(PostgresQuery(unsafeSQL: "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'"))
        let url = db.status.url(user: role, database: db.name) + "&password=\(password)"
        client = try PostgresClient(url: url, configuration: .init(maxConnections: 1))
    }

    func close() { client.close() }

    func dropRole() async throws {
        client.close()
        _ = try await TenantAnalysts.revoke(role: role, on: db.owner)
        try await db.superuser.query(PostgresQuery(unsafeSQL: "DROP OWNED BY \(role)"))
        try await db.superuser.query(PostgresQuery(unsafeSQL: "DROP ROLE \(role)"))
    }
}

private extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
