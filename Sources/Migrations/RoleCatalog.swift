import Foundation
import Postgres

/// What each database role may do, read from the catalog (`journeys db roles`), and the check
/// that a connection is fit to be the projector.
public enum RoleCatalog {
    /// The roles migration 0017 sets up, in the order they are shown.
    public static let roles = ["journeys_owner", "journeys_app", "journeys_projector", "journeys_analyst"]

    /// One role's rights.
    public struct Role: Sendable, Equatable {
        public var name: String
        public var login = false
        public var superuser = false
        public var createRole = false
        /// May create objects in schema `public`.
        public var createInPublic = false
        /// Tables and views of schema `public` it owns (their owner may ALTER and DROP them).
        public var owned = 0
        /// Per relation it does not own: what it may do there.
        public var relations: [Relation] = []
        /// SECURITY DEFINER functions it may call.
        public var definerFunctions: [String] = []
    }

    /// A role's privileges on one table or view.
    public struct Relation: Sendable, Equatable {
        public var name: String
        public var kind: String
        /// Table-wide privileges, e.g. `SELECT, INSERT`.
        public var privileges: String
        /// Column grants without the table-wide privilege, e.g. `UPDATE (revoked_at, last_used_at)`.
        public var columns: String
    }

    /// The rights of `names` that exist, in that order.
    public static func describe(_ names: [String] = roles, on client: PostgresClient) async throws -> [Role] {
        let list = String(decoding: try JSONEncoder().encode(names), as: UTF8.self)
        var result: [Role] = []
        for row in try await client.query(MigrationsStatements.roles(list)) {
            var role = Role(name: try row.decode(0))
            role.login = try row.decode(1)
            role.superuser = try row.decode(2)
            role.createRole = try row.decode(3)
            role.createInPublic = try row.decode(4)
            role.owned = try row.decode(5)
            result.append(role)
        }
        var index: [String: Int] = [:]
        for (i, role) in result.enumerated() { index[role.name] = i }
        for row in try await client.query(MigrationsStatements.relationPrivileges(list)) {
            guard let i = index[try row.decode(0, as: String.self)] else { continue }
            let relation = Relation(
                name: try row.decode(1), kind: try row.decode(2),
                privileges: try row.decode(3), columns: try row.decode(4))
            if !relation.privileges.isEmpty || !relation.columns.isEmpty { result[i].relations.append(relation) }
        }
        for row in try await client.query(MigrationsStatements.definerFunctions(list)) {
            guard let i = index[try row.decode(0, as: String.self)] else { continue }
            result[i].definerFunctions.append(try row.decode(1))
        }
        return result
    }

    /// The connected role as the projector: its name, whether it may write the read models,
    /// checkpoints and outbox, and whether it could write or alter the event log.
    public struct ProjectorFitness: Sendable, Equatable {
        public let role: String
        public let canProject: Bool
        public let canWriteLog: Bool

        public init(role: String, canProject: Bool, canWriteLog: Bool) {
            self.role = role
            self.canProject = canProject
            self.canWriteLog = canWriteLog
        }
    }

    public static func projectorFitness(_ client: PostgresClient) async throws -> ProjectorFitness {
        guard let row = try await client.query(MigrationsStatements.projectorFitness).first else {
            throw MigrationError(.migrationFailed, "the schema has no events table: run 'journeys migrate'")
        }
        return ProjectorFitness(role: try row.decode(0), canProject: try row.decode(1), canWriteLog: try row.decode(2))
    }
}
