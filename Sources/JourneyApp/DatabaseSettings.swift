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
    /// A direct server URL for LISTEN (`DATABASE_LISTEN_URL`) when the others go through
    /// PgBouncer in transaction mode; defaults to each pool's own URL.
    public var listenURL: String?
    /// A hot standby for reports, the dashboard, the journey listing and `audit show`
    /// (`REPORTS_DATABASE_URL`); defaults to `url`.
    public var reportsURL: String?
    /// The projector role's URL (`DATABASE_PROJECTOR_URL`): projections and outbound webhooks
    /// in `serve` and `work`. Required with `url`; the embedded cluster supplies its own.
    public var projectorURL: String?
    /// Named prepared statements per pooled connection (`DATABASE_PREPARED_STATEMENTS`): `auto`
    /// (on, off for a connection through PgBouncer), `on` or `off`; nil means `auto`.
    public var preparedStatements: String?

    public init(url: String? = nil, adminURL: String? = nil, embeddedDirectory: String = ".journeys/pg") {
        self.url = url
        self.adminURL = adminURL
        self.embeddedDirectory = embeddedDirectory
    }

    /// Reads `DATABASE_URL`, `DATABASE_ADMIN_URL` and `JOURNEYS_PG_DIR`; empty values count as unset.
    public static func from(environment: [String: String]) -> DatabaseSettings {
        func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        var settings = DatabaseSettings(
            url: value("DATABASE_URL"), adminURL: value("DATABASE_ADMIN_URL"),
            embeddedDirectory: value("JOURNEYS_PG_DIR") ?? ".journeys/pg")
        settings.listenURL = value("DATABASE_LISTEN_URL")
        settings.reportsURL = value("REPORTS_DATABASE_URL")
        settings.projectorURL = value(ProjectorCheck.variable)
        settings.preparedStatements = value("DATABASE_PREPARED_STATEMENTS")
        return settings
    }

    /// `DATABASE_PREPARED_STATEMENTS` checked: `auto` when unset.
    func preparedStatementsMode() throws -> PostgresClient.PreparedStatements {
        guard let preparedStatements else { return .auto }
        guard let mode = PostgresClient.PreparedStatements(rawValue: preparedStatements.lowercased()) else {
            throw AppError(.invalidInput, "DATABASE_PREPARED_STATEMENTS: expected auto, on or off")
        }
        return mode
    }

    /// The pool configuration of `size` connections, with LISTEN on `listenURL` when set.
    func pool(_ size: Int) throws -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(maxConnections: size, preparedStatements: try preparedStatementsMode())
        if let listenURL {
            do {
                configuration.listenDatabase = try PostgresConfiguration(listenURL)
            } catch let error as PostgresError {
                throw AppError(.invalidInput, "DATABASE_LISTEN_URL: \(error.message)")
            }
        }
        return configuration
    }

    public var embedded: EmbeddedPostgres { EmbeddedPostgres(.init(directory: embeddedDirectory)) }

    /// A pool over `REPORTS_DATABASE_URL`, or nil when it is not set.
    func reportsClient(_ size: Int) throws -> PostgresClient? {
        guard let reportsURL else { return nil }
        do {
            return try PostgresClient(
                url: reportsURL,
                configuration: .init(
                    maxConnections: max(2, min(size, 8)),
                    preparedStatements: try preparedStatementsMode()))
        } catch let error as PostgresError {
            throw AppError(.invalidInput, "REPORTS_DATABASE_URL: \(error.message)")
        }
    }
}

/// Connected clients for one command run.
public struct Database: Sendable {
    /// Least-privilege application role.
    public let app: PostgresClient
    /// Schema owner (migrations, benchmarks).
    public let admin: PostgresClient
    /// Set when running on the embedded cluster.
    public let embedded: EmbeddedPostgres.Status?
    /// Reading work that may lag (reports, dashboard, listing, `audit show`): the standby of
    /// `REPORTS_DATABASE_URL`, otherwise `app` itself.
    public let reports: PostgresClient
    /// The projector role's pool (`DATABASE_PROJECTOR_URL`, or the embedded cluster's), unchecked;
    /// nil when not given. ``verifiedProjector()`` checks it before use.
    public var projector: PostgresClient?

    public init(app: PostgresClient, admin: PostgresClient, embedded: EmbeddedPostgres.Status?, reports: PostgresClient? = nil) {
        self.app = app
        self.admin = admin
        self.embedded = embedded
        self.reports = reports ?? app
    }

    /// Connects; on the embedded cluster, starts it and applies pending migrations first.
    /// With `DATABASE_URL`, refuses to run against a schema with pending migrations.
    public static func open(_ settings: DatabaseSettings, poolSize: Int = 8, requireSchema: Bool = true) async throws -> Database
    {
        if let url = settings.url {
            let app = try PostgresClient(url: url, configuration: try settings.pool(poolSize))
            let admin = try PostgresClient(url: settings.adminURL ?? url, configuration: try settings.pool(2))
            if requireSchema {
                let pending = try await Migrator().pending(admin)
                guard pending.isEmpty else {
                    throw AppError(
                        .schemaOutdated,
                        "the database has pending migrations (\(pending.joined(separator: ", "))): run 'journeys migrate'")
                }
            }
            var database = Database(app: app, admin: admin, embedded: nil, reports: try settings.reportsClient(poolSize))
            database.projector = try settings.projectorURL.map {
                try ProjectorCheck.client(url: $0, configuration: try settings.pool(2))
            }
            return database
        }
        let status = try settings.embedded.start()
        let mode = try settings.preparedStatementsMode()
        let admin = try PostgresClient(url: status.ownerURL, configuration: .init(maxConnections: 2, preparedStatements: mode))
        if requireSchema { try await Migrator().migrate(admin) }
        let app = try PostgresClient(url: status.appURL, configuration: .init(maxConnections: poolSize, preparedStatements: mode))
        var database = Database(app: app, admin: admin, embedded: status, reports: try settings.reportsClient(poolSize))
        database.projector = try ProjectorCheck.client(
            url: settings.projectorURL ?? status.projectorURL,
            configuration: .init(maxConnections: 2))
        return database
    }

    /// Only the reports database: `REPORTS_DATABASE_URL` alone when set (the primary may be
    /// down), otherwise ``open(_:poolSize:requireSchema:)``'s application pool.
    public static func openReports(_ settings: DatabaseSettings, poolSize: Int = 1) async throws -> (
        reports: PostgresClient, close: @Sendable () -> Void
    ) {
        if let client = try settings.reportsClient(poolSize) { return (client, { client.close() }) }
        let database = try await open(settings, poolSize: poolSize)
        return (database.app, { database.close() })
    }

    /// The projector pool, once its role proved able to write the read models, checkpoints and
    /// outbox and unable to write the event log; an error naming `DATABASE_PROJECTOR_URL` otherwise.
    public func verifiedProjector() async throws -> PostgresClient {
        guard let projector else { throw ProjectorCheck.missing() }
        try await ProjectorCheck.verify(projector)
        return projector
    }

    public func close() {
        app.close()
        admin.close()
        if reports !== app { reports.close() }
        projector?.close()
    }
}
