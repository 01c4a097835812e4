import EmbeddedPostgres
import Foundation
import Migrations
import Postgres

/// Which PostgreSQL to use: `DATABASE_URL` when set, otherwise the embedded cluster.
public struct DatabaseSettings: Sendable {
    /// The application role's URL (`DATABASE_URL`); nil selects the embedded cluster.
    public var url: String?
    /// The schema owner's URL for migrations (`DATABASE_ADMIN_URL`); defaults to `url`.
    public var adminURL: String?
    /// The embedded cluster's folder (`JOURNEYS_PG_DIR`, default `.journeys/pg`).
    public var embeddedDirectory: String

    public init(url: String? = nil, adminURL: String? = nil, embeddedDirectory: String = ".journeys/pg") {
        self.url = url
        self.adminURL = adminURL
        self.embeddedDirectory = embeddedDirectory
    }

    /// Reads `DATABASE_URL`, `DATABASE_ADMIN_URL` and `JOURNEYS_PG_DIR`; empty values count as unset.
    public static func from(environment: [String: String]) -> DatabaseSettings {
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        return DatabaseSettings(url: value("DATABASE_URL"), adminURL: value("DATABASE_ADMIN_URL"),
                                embeddedDirectory: value("JOURNEYS_PG_DIR") ?? ".journeys/pg")
    }

    public var embedded: EmbeddedPostgres { EmbeddedPostgres(.init(directory: embeddedDirectory)) }
}

/// Connected clients for one command run.
public struct Database: Sendable {
    /// Least-privilege application role.
    public let app: PostgresClient
    /// Schema owner (migrations, benchmarks).
    public let admin: PostgresClient
    /// Set when running on the embedded cluster.
    public let embedded: EmbeddedPostgres.Status?

    /// Connects; on the embedded cluster, starts it and applies pending migrations first.
    /// With `DATABASE_URL`, refuses to run against a schema with pending migrations.
    public static func open(_ settings: DatabaseSettings, poolSize: Int = 8, requireSchema: Bool = true) async throws -> Database {
        if let url = settings.url {
            let app = try PostgresClient(url: url, configuration: .init(maxConnections: poolSize))
            let admin = try PostgresClient(url: settings.adminURL ?? url, configuration: .init(maxConnections: 2))
            if requireSchema {
                let pending = try await Migrator().pending(admin)
                guard pending.isEmpty else {
                    throw AppError(.schemaOutdated, "the database has pending migrations (\(pending.joined(separator: ", "))): run 'journeys migrate'")
                }
            }
            return Database(app: app, admin: admin, embedded: nil)
        }
        let status = try settings.embedded.start()
        let admin = try PostgresClient(url: status.ownerURL, configuration: .init(maxConnections: 2))
        if requireSchema { try await Migrator().migrate(admin) }
        let app = try PostgresClient(url: status.appURL, configuration: .init(maxConnections: poolSize))
        return Database(app: app, admin: admin, embedded: status)
    }

    public func close() {
        app.close()
        admin.close()
    }
}
