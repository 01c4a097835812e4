import EmbeddedPostgres
import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
import Migrations
import Postgres
import Projections
import Testing

/// `serve`/`work`'s pools through a real PgBouncer 1.18 in transaction mode (three server
/// connections shared by every transaction), LISTEN on the direct URL (`DATABASE_LISTEN_URL`).
@Suite struct PgBouncerTests {
    static func bouncer(for db: TestDatabase, poolSize: Int = 3) throws -> LocalPgBouncer {
        let users = [
            EmbeddedPostgres.appRole: try db.cluster.password(for: EmbeddedPostgres.appRole),
            EmbeddedPostgres.ownerRole: try db.cluster.password(for: EmbeddedPostgres.ownerRole),
        ]
        var configuration = LocalPgBouncer.Configuration(
            serverPort: db.status.port, users: users,
            directory: NSTemporaryDirectory() + "journeys-pgbouncer-\(getpid())-\(UUID().uuidString.prefix(8))")
        configuration.poolSize = poolSize
        return try LocalPgBouncer.start(configuration)
    }

    @Test func journeysRunEndToEndThroughPgBouncerInTransactionMode() async throws {
        try await TestDatabase.with(poolSize: 12) { db in
            let bouncer = try Self.bouncer(for: db)
            defer { bouncer.stop() }
            let app = try PostgresClient(
                url: bouncer.url(user: EmbeddedPostgres.appRole, database: db.name),
                configuration: .init(maxConnections: 12, listenDatabase: try PostgresConfiguration(db.appURL)))
            let owner = try PostgresClient(
                url: bouncer.url(user: EmbeddedPostgres.ownerRole, database: db.name),
                configuration: .init(maxConnections: 4, listenDatabase: try PostgresConfiguration(db.ownerURL)))
            defer {
                app.close()
                owner.close()
            }
            // Through PgBouncer the server sees a TCP client; the direct URLs use the socket.
            let peer = try await app.query("SELECT coalesce(inet_client_addr()::text, 'socket')").first?.decode(
                0, as: String.self)
            #expect(peer == "127.0.0.1/32" || peer == "127.0.0.1")
            // Migrations serialize with a transaction-level lock, so they run through it too.
            let report = try await Migrator().migrate(owner)
            #expect(report.applied.isEmpty && !report.alreadyApplied.isEmpty)

            var options = TestStack.Options(time: .system)
            options.poolSize = 12
            try await TestStack.with(options, database: db.replacing(app: app, owner: owner)) { stack in
                let h = WorkersHarness(stack: stack)
                // The follower's only wake-up is NOTIFY on the direct LISTEN connection (its poll is a minute).
                let runner = ProjectionRunner(client: owner, configuration: .init(pollInterval: 60))
                let following = Task { try await runner.run() }
                defer { following.cancel() }
                try await db.waitForListeners(on: EventStore.notificationChannel)

                // Twelve pooled connections' transactions on three server connections, at once.
                let ids = try await withThrowingTaskGroup(of: JourneyID.self) { group in
                    for _ in 0..<10 { group.addTask { try await h.startCreated() } }
                    return try await group.reduce(into: [JourneyID]()) { $0.append($1) }
                }
                #expect(ids.count == 10)
                for id in ids.prefix(3) {
                    #expect(try await h.capture(id, as: .approve))
                    #expect(try await h.state(id).status == .completed)
                }
                // Well before the runner's one-minute poll: it followed through NOTIFY.
                try await waitUntil("the read model follows through NOTIFY", limit: .seconds(30)) {
                    try await owner.query("SELECT count(*) FROM journey_state WHERE status = 'completed'")
                        .first?.decode(0, as: Int.self) ?? 0 == 3
                }
                let listed = try await h.send("GET", "/v1/journeys?limit=50")
                #expect((listed["items"] as? [[String: Any]])?.count == 10)

                // A worker claims and works through PgBouncer (SKIP LOCKED claims, heartbeats).
                let worker = try h.worker()
                _ = try await worker.runOnce()
            }
        }
    }

    @Test func aPgBouncerThatIsDownIsAnErrorNamingItsHostAndPort() async throws {
        let directory = NSTemporaryDirectory() + "journeys-pgbouncer-down-\(getpid())-\(UUID().uuidString.prefix(8))"
        let bouncer = try LocalPgBouncer.start(.init(serverPort: 1, users: ["journeys_app": "x"], directory: directory))
        let pid = try #require(
            pid_t(
                try String(contentsOfFile: directory + "/pgbouncer.pid", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        bouncer.stop()
        // Stopped, not just unreachable: the daemon is gone (it once outlived every test run).
        try await waitUntil("pgbouncer \(pid) exits after stop()") { kill(pid, 0) != 0 }
        let client = try PostgresClient(url: bouncer.url(user: "journeys_app", database: "journeys"))
        defer { client.close() }
        let error = await #expect(throws: PostgresError.self) { try await client.query("SELECT 1") }
        #expect(error?.isUnavailable == true)
        #expect(error?.message.contains("127.0.0.1") == true)
        #expect(error?.message.contains("\(bouncer.port)") == true)
        #expect(error?.message.contains("journeys_app:x") == false)
    }
}
