import EmbeddedPostgres
import Foundation
import JourneyApp
import Postgres

extension EndToEndBenchmark {
    /// The starts again with the service's pool through a PgBouncer in transaction mode on
    /// loopback in front of the embedded cluster (as many server connections as the pool);
    /// LISTEN stays on the direct URL.
    func runThroughPgBouncer() async throws -> Group {
        guard let status = database.embedded else {
            throw AppError(
                .invalidInput,
                "--through-pgbouncer starts a PgBouncer in front of the embedded cluster; with DATABASE_URL "
                    + "set, run bench e2e twice instead: DATABASE_URL direct, then DATABASE_URL through your PgBouncer")
        }
        let role = EmbeddedPostgres.appRole
        let password = try AppEnvironment.current.database.embedded.password(for: role)
        var settings = LocalPgBouncer.Configuration(
            serverPort: status.port, users: [role: password],
            directory: NSTemporaryDirectory() + "journeys-bench-pgbouncer-\(getpid())")
        settings.poolSize = configuration.clients + 4
        let bouncer = try LocalPgBouncer.start(settings)
        defer { bouncer.stop() }
        let app = try PostgresClient(
            url: bouncer.url(user: role, database: status.database),
            configuration: .init(
                maxConnections: configuration.clients + 4,
                listenDatabase: try PostgresConfiguration(status.appURL)))
        defer { app.close() }
        let bounced = Database(app: app, admin: database.admin, embedded: status)
        return try await EndToEndBenchmark(database: bounced, configuration: configuration).run().journey_start
    }
}
