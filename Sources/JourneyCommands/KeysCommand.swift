import AccessControl
import CLI
import Foundation
import JourneyApp

/// `journeys keys`: API keys for backends and operators.
struct KeysCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "keys", summary: "Create, list and revoke API keys; rotate the key-encryption key.",
        discussion: "Scopes: \(Scope.allowedValues) (admin implies all). Keys are stored hashed; a key is shown once.",
        subcommands: [KeysCreate.self, KeysList.self, KeysRevoke.self, KeysRotateKEK.self])

    /// Runs `body` with the app role's store; turns bad input and unknown keys into app errors.
    static func withStore<T: Sendable>(_ body: (APIKeyStore) async throws -> T) async throws -> T {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        do {
            return try await body(APIKeyStore(client: database.app))
        } catch let error as AccessError {
            throw appError(error)
        }
    }

    /// Bad input exits 64; an unknown key or tenant, an existing tenant and the rest exit 1.
    static func appError(_ error: AccessError) -> AppError {
        AppError(error.code == .invalidArgument ? .invalidInput : .notFound, error.message)
    }

    static func format(_ date: Date?) -> String {
        date.map { $0.formatted(.iso8601) } ?? "-"
    }
}

struct KeysCreate: Command {
    static let configuration = CommandConfiguration(
        name: "create", summary: "Create a key; prints it once, with its id and prefix.",
        options: [
            .required("name", valueName: "NAME", help: "Who or what uses the key, e.g. 'partner backend'."),
            .repeatable(
                "scope", valueName: "SCOPE",
                help: "A scope to grant; repeat for more: \(Scope.allowedValues). "
                    + "journeys:read reads states and timestamps only; human-token:read opens Human Tokens and "
                    + "personal data (each opening is recorded as PersonalDataDisclosed)."),
            .optional(
                "tenant", valueName: "NAME",
                help: "The tenant owning the key (journeys tenants create NAME); "
                    + "it reads only that tenant's journeys.", default: Tenant.defaultName),
        ])
    let name: String
    let scopes: [Scope]
    let tenant: String

    init(arguments: ParsedArguments) throws {
        name = try arguments.string("name")
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AppError(.invalidInput, "--name must not be empty")
        }
        let given = try arguments.strings("scope")
        guard !given.isEmpty else {
            throw AppError(.invalidInput, "give at least one --scope: \(Scope.allowedValues)")
        }
        scopes = try given.map { text in
            guard let scope = Scope(rawValue: text) else {
                throw AppError(.invalidInput, "unknown scope '\(text.prefix(40))' for --scope; allowed: \(Scope.allowedValues)")
            }
            return scope
        }
        do {
            tenant = try Tenant.validName(try arguments.optionalString("tenant") ?? Tenant.defaultName)
        } catch let error as AccessError {
            throw AppError(.invalidInput, "--tenant: \(error.message)")
        }
    }

    func run() async throws {
        let (key, plaintext) = try await KeysCommand.withStore { [name, scopes, tenant] store in
            try await store.create(name: name, scopes: scopes, tenant: tenant)
        }
        let out = AppEnvironment.current.writeLine
        out("id:      \(key.id.uuidString.lowercased())")
        out("name:    \(key.name)")
        out("prefix:  \(key.prefix)")
        out("scopes:  \(key.scopes.map(\.rawValue).joined(separator: " "))")
        out("tenant:  \(key.tenant)")
        out("key:     \(plaintext)")
        out("Store the key now: it is shown only this once and cannot be recovered.")
    }
}

struct KeysList: Command {
    static let configuration = CommandConfiguration(
        name: "list", summary: "List keys (never their secrets), revoked ones included.")
    init(arguments: ParsedArguments) throws {}

    func run() async throws {
        let keys = try await KeysCommand.withStore { try await $0.list() }
        let out = AppEnvironment.current.writeLine
        guard !keys.isEmpty else { return out("no API keys (create one with 'journeys keys create')") }
        var table = TextTable(columns: ["ID", "NAME", "PREFIX", "TENANT", "SCOPES", "CREATED", "LAST USED", "REVOKED"])
        for key in keys {
            table.append([
                key.id.uuidString.lowercased(), key.name, key.prefix, key.tenant,
                key.scopes.map(\.rawValue).joined(separator: " "), KeysCommand.format(key.createdAt),
                KeysCommand.format(key.lastUsedAt), KeysCommand.format(key.revokedAt),
            ])
        }
        out(String(table.render().dropLast()))
    }
}

struct KeysRevoke: Command {
    static let configuration = CommandConfiguration(
        name: "revoke", summary: "Revoke a key by id or prefix; it stops working at once, for good.",
        positionals: [PositionalSpec("key", help: "The key's id (UUID) or prefix.")])
    let reference: String
    init(arguments: ParsedArguments) throws { reference = try arguments.string("key") }

    func run() async throws {
        let key = try await KeysCommand.withStore { [reference] in try await $0.revoke(reference) }
        AppEnvironment.current.writeLine(
            "revoked \(key.prefix) (\(key.id.uuidString.lowercased()), \(key.name)) at \(KeysCommand.format(key.revokedAt))")
    }
}
