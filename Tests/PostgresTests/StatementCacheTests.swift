import EmbeddedPostgres
import Foundation
import JourneyTesting
import Postgres
import Testing

/// The per-connection prepared-statement cache, observed through the server's own
/// `pg_prepared_statements` view of the session.
@Suite struct StatementCacheTests {
    static let probe: PostgresQuery = "SELECT $1::int + 1 AS next"

    /// How many of this session's prepared statements have `sql` as their text.
    static func prepared(_ sql: String, on connection: PostgresConnection) throws -> Int {
        try connection.query("SELECT count(*)::int FROM pg_prepared_statements WHERE statement = \(sql)")
            .first!.decode(0, as: Int.self)
    }

    static func next(_ value: Int, on connection: PostgresConnection) throws -> Int {
        var query = probe
        query.binds = [String(value)]
        return try connection.query(query).first!.decode("next", as: Int.self)
    }

    @Test func aStatementIsPreparedOncePerConnection() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            for value in 1...5 {
                #expect(try await client.withConnection { try Self.next(value, on: $0) } == value + 1)
            }
            let (count, cached) = try await client.withConnection {
                (try Self.prepared(Self.probe.sql, on: $0), $0.preparedStatementCount)
            }
            #expect(count == 1)
            #expect(cached == 2)  // the probe and the pg_prepared_statements query
        }
    }

    @Test func theCacheIsBoundedAndDeallocatesWhatItDrops() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1, statementCacheCapacity: 2))
            defer { client.close() }
            let total = try await client.withConnection { connection -> Int in
                for n in 1...5 { try connection.query(PostgresQuery(unsafeSQL: "SELECT \(n) AS n")) }
                return try connection.query("SELECT count(*)::int FROM pg_prepared_statements").first!.decode(0, as: Int.self)
            }
            // The last SELECT n and the count itself; the others were deallocated as they were dropped.
            #expect(total == 2)
        }
    }

    @Test func afterDiscardAllTheStatementIsPreparedAgain() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            try await client.withConnection { connection in
                #expect(try Self.next(1, on: connection) == 2)
                try connection.execute(unsafeSQL: "DISCARD ALL")
                // Outside a transaction: prepared again once, transparently.
                #expect(try Self.next(2, on: connection) == 3)
                #expect(try Self.prepared(Self.probe.sql, on: connection) == 1)

                // Inside one the error surfaces (the transaction is aborted); the next use re-prepares.
                try connection.execute(unsafeSQL: "DISCARD ALL")
                let error = #expect(throws: PostgresError.self) {
                    try connection.transaction { try Self.next(3, on: $0) }
                }
                #expect(error?.sqlState == "26000")
                #expect(try connection.transaction { try Self.next(4, on: $0) } == 5)
            }
        }
    }

    @Test func aReconnectedConnectionPreparesAgain() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            let pid = try await client.withConnection { connection -> Int32 in
                _ = try Self.next(1, on: connection)
                return connection.backendPID
            }
            try await db.superuser.query("SELECT pg_terminate_backend(\(Int(pid)))")
            try await waitUntil("the backend is gone") {
                try await db.superuser.query("SELECT count(*)::int FROM pg_stat_activity WHERE pid = \(Int(pid))")
                    .first!.decode(0, as: Int.self) == 0
            }
            // The idle connection notices the end of its session and reconnects (PQreset); should
            // the notice come too late, the broken connection is dropped and the next call opens one.
            func run() async throws -> (Int, Int32, Int) {
                try await client.withConnection { connection in
                    (try Self.next(7, on: connection), connection.backendPID, try Self.prepared(Self.probe.sql, on: connection))
                }
            }
            let (value, newPID, count) = try await { () async throws -> (Int, Int32, Int) in
                do { return try await run() } catch let error as PostgresError where error.isConnectionError {
                    return try await run()
                }
            }()
            #expect(value == 8)
            #expect(newPID != pid)
            #expect(count == 1)
        }
    }

    @Test func withTheCacheOffNothingIsPrepared() async throws {
        try await TestDatabase.with(migrated: false) { db in
            for configuration in [
                PostgresClient.Configuration(maxConnections: 1, preparedStatements: .off),
                PostgresClient.Configuration(maxConnections: 1, statementCacheCapacity: 0),
            ] {
                let client = try PostgresClient(url: db.appURL, configuration: configuration)
                defer { client.close() }
                let (value, count, cached) = try await client.withConnection { connection in
                    _ = try Self.next(1, on: connection)
                    return (
                        try Self.next(2, on: connection),
                        try connection.query("SELECT count(*)::int FROM pg_prepared_statements").first!.decode(0, as: Int.self),
                        connection.preparedStatementCount
                    )
                }
                #expect(value == 3)
                #expect(count == 0)
                #expect(cached == 0)
            }
        }
    }

    @Test func aSchemaChangeBetweenRunsPreparesAgain() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE shapes (a int, b int)")
            try await db.owner.query("INSERT INTO shapes VALUES (1, 2)")
            try await db.owner.query("GRANT SELECT ON shapes TO journeys_app")
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            let all: PostgresQuery = "SELECT * FROM shapes"
            #expect(try await client.query(all).columns == ["a", "b"])
            // A migration adds a column: the cached plan's result type changed.
            try await db.owner.query("ALTER TABLE shapes ADD COLUMN c int DEFAULT 3")
            let rows = try await client.query(all)
            #expect(rows.columns == ["a", "b", "c"])
            #expect(try rows.first?.decode("c", as: Int.self) == 3)

            // Inside a transaction the error surfaces once; the next use prepares the new shape.
            try await db.owner.query("ALTER TABLE shapes ADD COLUMN d int DEFAULT 4")
            let error = await captureError { try await client.transaction { try $0.query(all) } } as? PostgresError
            #expect(error?.sqlState == "0A000")
            #expect(try await client.transaction { try $0.query(all) }.columns == ["a", "b", "c", "d"])
            let stale = try await client.withConnection { connection in
                try connection.query("SELECT count(*)::int FROM pg_prepared_statements WHERE statement = \(all.sql)")
                    .first!.decode(0, as: Int.self)
            }
            #expect(stale == 1)  // the stale copy was deallocated before the next prepare
        }
    }

    @Test func throughPgBouncerTheCacheTurnsItselfOff() async throws {
        try await TestDatabase.with(migrated: false) { db in
            var settings = LocalPgBouncer.Configuration(
                serverPort: db.status.port,
                users: [EmbeddedPostgres.appRole: try db.cluster.password(for: EmbeddedPostgres.appRole)],
                directory: NSTemporaryDirectory() + "journeys-pgbouncer-\(getpid())-\(UUID().uuidString.prefix(8))")
            settings.poolSize = 1
            let bouncer = try LocalPgBouncer.start(settings)
            defer { bouncer.stop() }
            let url = bouncer.url(user: EmbeddedPostgres.appRole, database: db.name)
            // Two client connections share one server connection, transaction by transaction.
            let client = try PostgresClient(url: url, configuration: .init(maxConnections: 2))
            defer { client.close() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        for value in 0..<25 {
                            let (next, cached) = try await client.transaction {
                                (try Self.next(task * 100 + value, on: $0), $0.preparedStatementCount)
                            }
                            #expect(next == task * 100 + value + 1)
                            #expect(cached == 0)
                        }
                    }
                }
                try await group.waitForAll()
            }
            // The same pool forced on prepares by name (what PgBouncer 1.18 cannot carry).
            let forced = try PostgresClient(url: url, configuration: .init(maxConnections: 1, preparedStatements: .on))
            defer { forced.close() }
            let (value, cached) = try await forced.withConnection { (try Self.next(1, on: $0), $0.preparedStatementCount) }
            #expect(value == 2)
            #expect(cached == 1)
        }
    }

    /// A PgBouncer in transaction mode on the server's own port number (127.0.0.2, the server's
    /// port), so `inet_server_port()` matches the port connected to; one server connection.
    static func bouncerOnTheServersPort(_ db: TestDatabase) throws -> LocalPgBouncer {
        var settings = LocalPgBouncer.Configuration(
            serverPort: db.status.port, users: [EmbeddedPostgres.appRole: try db.cluster.password(for: EmbeddedPostgres.appRole)],
            directory: NSTemporaryDirectory() + "journeys-pgbouncer-\(getpid())-\(UUID().uuidString.prefix(8))")
        settings.poolSize = 1
        settings.listenHost = "127.0.0.2"
        settings.listenPort = db.status.port
        return try LocalPgBouncer.start(settings)
    }

    @Test func throughPgBouncerOnTheServersOwnPortTheCacheStillTurnsItselfOff() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let bouncer = try Self.bouncerOnTheServersPort(db)
            defer { bouncer.stop() }
            let url = bouncer.url(user: EmbeddedPostgres.appRole, database: db.name)
            let client = try PostgresClient(url: url, configuration: .init(maxConnections: 2))
            defer { client.close() }
            let port: PostgresQuery = "SELECT inet_server_port() AS port"
            #expect(try await client.query(port).first?.decode("port", as: Int.self) == db.status.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        for value in 0..<25 {
                            let (next, cached) = try await client.transaction {
                                (try Self.next(task * 100 + value, on: $0), $0.preparedStatementCount)
                            }
                            #expect(next == task * 100 + value + 1)
                            #expect(cached == 0)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func twoStatementsNeverShareANameEvenWhenAPoolerMixesSessions() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let bouncer = try Self.bouncerOnTheServersPort(db)
            defer { bouncer.stop() }
            // Forced on through a pooler without statement tracking: two client connections, one
            // server session, each client preparing its own statements by name there.
            let url = bouncer.url(user: EmbeddedPostgres.appRole, database: db.name)
            let client = try PostgresClient(url: url, configuration: .init(maxConnections: 2, preparedStatements: .on))
            defer { client.close() }
            let plusOne: PostgresQuery = "SELECT $1::int + 1 AS n"
            let timesTen: PostgresQuery = "SELECT $1::int * 10 AS n"
            @Sendable func run(_ statement: PostgresQuery, _ value: Int, on connection: PostgresConnection) throws -> Int {
                var query = statement
                query.binds = [String(value)]
                return try connection.query(query).first!.decode("n", as: Int.self)
            }
            // Hold both client connections at once, so each prepares in the one shared session.
            let (first, second) = try await withThrowingTaskGroup(of: (Int, [Int]).self) { group in
                let gate = AsyncGate(count: 2)
                for (index, order) in [[plusOne, timesTen, plusOne], [timesTen, plusOne, timesTen]].enumerated() {
                    group.addTask {
                        try await client.withConnection { connection in
                            gate.arriveAndWait()
                            return (index, try order.map { try run($0, 7, on: connection) })
                        }
                    }
                }
                var results: [Int: [Int]] = [:]
                for try await (index, values) in group { results[index] = values }
                return (results[0]!, results[1]!)
            }
            // Each client ran its own statements with its own binds, never the other's under its name.
            #expect(first == [8, 70, 8])
            #expect(second == [70, 8, 70])
            #expect(try await client.withConnection { $0.preparedStatementCount } == 2)
            // The one server session holds each text once, under its one name.
            let held = try await client.withConnection { connection in
                try [plusOne, timesTen].map { try Self.prepared($0.sql, on: connection) }
            }
            #expect(held == [1, 1])
        }
    }
}

/// Lets `count` threads continue only once all of them arrived (bounded: 10 s).
final class AsyncGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) { waiting = count }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 { condition.broadcast(); return }
        let deadline = Date().addingTimeInterval(10)
        while waiting > 0, condition.wait(until: deadline) {}
    }
}
