import CLI
import JourneyApp
import Migrations

/// `journeys db roles`: what each of the service's database roles may do, read from the catalog.
struct DbRoles: Command {
    static let configuration = CommandConfiguration(
        name: "roles", summary: "Print what each database role may do (from the catalog).",
        discussion: """
            For journeys_owner, journeys_app, journeys_projector and journeys_analyst: login, superuser, \
            CREATEROLE, CREATE on schema public, the tables and views it owns, its privileges on every other \
            table and view of schema public (column grants included) and the SECURITY DEFINER functions it \
            may call. Uses DATABASE_ADMIN_URL (else DATABASE_URL) or the embedded cluster.
            """)
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        let roles = try await RoleCatalog.describe(on: database.admin)
        let out = AppEnvironment.current.writeLine
        for name in RoleCatalog.roles where !roles.contains(where: { $0.name == name }) {
            out("\(name): missing (run 'journeys migrate' as a role that may create roles, or create it)")
        }
        for role in roles {
            out(Self.lines(role).joined(separator: "\n"))
        }
    }

    /// One role's block: a heading, then one line per right.
    static func lines(_ role: RoleCatalog.Role) -> [String] {
        var attributes = [role.login ? "login" : "no login"]
        if role.superuser { attributes.append("SUPERUSER: bypasses every check below") }
        if role.createRole { attributes.append("may create roles") }
        var lines = ["\(role.name) (\(attributes.joined(separator: ", ")))"]
        lines.append("  create in schema public: \(role.createInPublic ? "yes" : "no")")
        if role.owned > 0 {
            lines.append("  owns \(role.owned) tables and views: every privilege on them, ALTER (triggers included) and DROP")
        }
        for relation in role.relations {
            let rights = [relation.privileges, relation.columns].filter { !$0.isEmpty }.joined(separator: "; ")
            lines.append("  \(relation.kind) \(relation.name): \(rights)")
        }
        for function in role.definerFunctions {
            lines.append("  calls \(function) (SECURITY DEFINER)")
        }
        if role.relations.isEmpty && role.owned == 0 && role.definerFunctions.isEmpty {
            lines.append("  no table, view or function rights")
        }
        return lines
    }
}
