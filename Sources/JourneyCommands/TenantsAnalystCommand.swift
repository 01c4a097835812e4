import CLI
import JourneyApp
import Reports

/// `journeys tenants analyst ROLE --tenant NAME`: confines a database login role to one tenant's
/// rows of the analyst views and daily rollups (row-level security, migration 0040).
struct TenantsAnalyst: Command {
    static let configuration = CommandConfiguration(
        name: "analyst", summary: "Confine a database role to one tenant's analyst views and rollups (or --revoke).",
        discussion: """
            Create the login role first, as a superuser: CREATE ROLE acme_analyst LOGIN PASSWORD '...'. \
            Then 'journeys tenants analyst acme_analyst --tenant acme' (as the schema's owner: DATABASE_ADMIN_URL) \
            grants it SELECT on analyst_journeys, analyst_attempts and journey_daily*, where it sees only \
            tenant acme's rows. Again with another tenant moves it; --revoke takes everything away. \
            journeys_analyst keeps reading every tenant.
            """,
        options: [.optional("tenant", valueName: "NAME", help: "The tenant whose rows the role may read.")],
        flags: [FlagSpec("revoke", help: "Take the role's grants and policies away.")],
        positionals: [PositionalSpec("role", help: "An existing login role, not a service role nor a superuser.")])
    let role: String
    let tenant: String?

    init(arguments: ParsedArguments) throws {
        role = try arguments.string("role")
        let revoke = try arguments.flag("revoke")
        tenant = try arguments.optionalString("tenant")
        guard revoke == (tenant == nil) else {
            throw AppError(.invalidInput, revoke ? "--revoke takes no --tenant" : "give --tenant NAME (or --revoke)")
        }
        guard !role.isEmpty, role.utf8.count <= 63 else {
            throw AppError(.invalidInput, "role: 1 to 63 bytes (a PostgreSQL role name)")
        }
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let out = AppEnvironment.current.writeLine
        guard let tenant else {
            let revoked = try await TenantAnalysts.revoke(role: role, on: database.admin)
            guard revoked else { throw AppError(.notFound, "role \(role) is not a tenant analyst") }
            out("revoked tenant analyst \(role)")
            return
        }
        do {
            try await TenantAnalysts.grant(role: role, tenant: tenant, on: database.admin)
        } catch let error as ReportError {
            throw AppError(.invalidInput, error.message)
        }
        out("\(role) reads only tenant \(tenant)'s rows of analyst_journeys, analyst_attempts and journey_daily*")
    }
}

/// `journeys tenants analysts`: the roles confined to one tenant.
struct TenantsAnalysts: Command {
    static let configuration = CommandConfiguration(
        name: "analysts", summary: "List the database roles confined to one tenant (journeys tenants analyst).")
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        var table = TextTable(columns: ["ROLE", "TENANT", "GRANTED"])
        for grant in try await TenantAnalysts.list(on: database.admin) {
            table.append([grant.role, grant.tenant, KeysCommand.format(grant.grantedAt)])
        }
        AppEnvironment.current.writeLine(String(table.render().dropLast()))
    }
}
