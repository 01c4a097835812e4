import AccessControl
import CLI
import Foundation
import JourneyApp

/// `journeys tenants`: the companies a deployment serves; each owns its API keys and journeys.
struct TenantsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "tenants", summary: "Create and list tenants (companies served by one deployment).",
        discussion: "Every deployment has the tenant '\(Tenant.defaultName)': keys created without --tenant belong to it. "
            + "A key reads only its tenant's journeys; another tenant's journey answers 404.",
        subcommands: [TenantsCreate.self, TenantsList.self, TenantsAnalyst.self, TenantsAnalysts.self])

    /// Runs `body` with the app role's tenant store; turns bad input into app errors.
    static func withStore<T: Sendable>(_ body: (TenantStore) async throws -> T) async throws -> T {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        do {
            return try await body(TenantStore(client: database.app))
        } catch let error as AccessError {
            throw KeysCommand.appError(error)
        }
    }
}

struct TenantsCreate: Command {
    static let configuration = CommandConfiguration(
        name: "create", summary: "Create a tenant; then give it keys with 'journeys keys create --tenant NAME'.",
        positionals: [PositionalSpec("name", help: "1 to 40 of a-z, 0-9, '-' and '_', starting with a letter.")])
    let name: String

    init(arguments: ParsedArguments) throws {
        let given = try arguments.string("name")
        do {
            name = try Tenant.validName(given)
        } catch let error as AccessError {
            throw AppError(.invalidInput, error.message)
        }
    }

    func run() async throws {
        let tenant = try await TenantsCommand.withStore { [name] in try await $0.create(name: name) }
        AppEnvironment.current.writeLine("created tenant \(tenant.name)")
    }
}

struct TenantsList: Command {
    static let configuration = CommandConfiguration(name: "list", summary: "List tenants, oldest first.")
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let tenants = try await TenantsCommand.withStore { try await $0.list() }
        var table = TextTable(columns: ["NAME", "CREATED"])
        for tenant in tenants { table.append([tenant.name, KeysCommand.format(tenant.createdAt)]) }
        AppEnvironment.current.writeLine(String(table.render().dropLast()))
    }
}
