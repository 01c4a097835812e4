import Foundation
import JourneyTesting
import Postgres
import Testing

/// `PostgresClient.query` sends on the caller's thread and reads the result on the pool's event
/// loop; these check it answers exactly as the connection-queue path (`withConnection`) does.
@Suite struct EventLoopQueryTests {
    static let statements: [PostgresQuery] = [
        "SELECT n, label FROM items WHERE n <= \(3) ORDER BY n",
        "SELECT n, label FROM items WHERE label IS NULL",
        "SELECT count(*) FROM items WHERE n > \(1)",
        "UPDATE items SET label = label WHERE n >= \(2)",
        "SELECT \(nullable: String?.none)::text AS nothing",
    ]

    static func rows(_ rows: PostgresRows) throws -> [[String?]] {
        let width = rows.columns.count
        return try rows.map { row in try (0..<width).map { try row.decode($0, as: String?.self) } }
    }

    @Test(arguments: [true, false]) func answersEqualTheQueuePath(cached: Bool) async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE items (n int PRIMARY KEY, label text)")
            try await db.owner.query(
                "INSERT INTO items SELECT n, CASE WHEN n % 2 = 0 THEN 'even' END FROM generate_series(1, 5) n")
            let client = try PostgresClient(
                url: db.ownerURL, configuration: .init(maxConnections: 3, statementCacheCapacity: cached ? 16 : 0))
            defer { client.close() }
            for statement in Self.statements {
                let expected = try await client.withConnection { try Self.rows($0.query(statement)) }
                let expectedCount = try await client.withConnection { try $0.query(statement).affectedRows }
                // Several rounds, concurrently: the first prepares, the rest run on the event loop.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<12 {
                        group.addTask {
                            let rows = try await client.query(statement)
                            #expect(try Self.rows(rows) == expected)
                            #expect(rows.affectedRows == expectedCount)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let duplicate: PostgresQuery = "INSERT INTO items VALUES (\(1), 'again')"
            for _ in 0..<3 {
                let error = await captureError { try await client.query(duplicate) } as? PostgresError
                #expect(error?.code == .uniqueViolation)
                #expect(error?.constraint == "items_pkey")
            }
            #expect(try await client.query("SELECT 1").count == 1)
        }
    }

    @Test func aBeginSentAloneLeavesNoTransactionOpen() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            try await client.query("SELECT 1")
            try await client.query("BEGIN")
            try await client.query("BEGIN")
            let open = try await client.withConnection { $0.isInTransaction }
            #expect(!open)
        }
    }

    @Test func aStatementTheServerForgotIsPreparedAgain() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            let statement: PostgresQuery = "SELECT \(41) + 1"
            #expect(try await client.query(statement).first?.decode(0, as: Int.self) == 42)
            #expect(try await client.query(statement).first?.decode(0, as: Int.self) == 42)
            try await client.withConnection { try $0.execute(unsafeSQL: "DEALLOCATE ALL") }
            #expect(try await client.query(statement).first?.decode(0, as: Int.self) == 42)
            #expect(try await client.withConnection { $0.preparedStatementCount } == 1)
        }
    }

    @Test func aBackendKilledMidQueryFailsThatQueryAndThePoolRecovers() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            // Prepared first, so the long statement itself goes through the event loop.
            _ = try await client.withConnection { try $0.query("SELECT pg_sleep(\(0))") }
            let pid = try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)
            async let slow = captureError { try await client.query("SELECT pg_sleep(\(30))") }
            try await waitUntil("the slow statement runs") {
                try await db.superuser.query(
                    "SELECT 1 FROM pg_stat_activity WHERE pid = \(pid) AND query LIKE 'SELECT pg_sleep%' AND state = 'active'"
                ).count > 0
            }
            try await db.superuser.query("SELECT pg_terminate_backend(\(pid))")
            let error = await slow as? PostgresError
            #expect(error != nil)
            let after = try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)
            #expect(after != pid)
            #expect(client.openConnections == 1)
        }
    }

    @Test func aQueryWaitingForAConnectionCanBeCancelled() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            let (held, holding) = AsyncStream<Void>.makeStream()
            async let holder: Void = client.withConnection { connection in
                holding.yield()
                try connection.query("SELECT pg_sleep(0.5)")
            }
            for await _ in held { break }
            // Cancelled before it starts: the cancellation must still be noticed once it waits.
            let waiting = Task { try await client.query("SELECT 1") }
            waiting.cancel()
            let error = await captureError { try await waiting.value }
            #expect(error is CancellationError)
            try await holder
            #expect(try await client.query("SELECT 1").count == 1)
        }
    }

    @Test func closingThePoolLetsAStatementInFlightFinish() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            // The statement waits for an advisory lock the test holds on a session of its own.
            let statement: PostgresQuery = "SELECT pg_advisory_xact_lock(\(4242)), \(7)::int"
            _ = try await client.query(statement)
            let pid = try await client.query("SELECT pg_backend_pid()").first!.decode(0, as: Int32.self)
            let holder = try PostgresConnection.connect(db.superuser.database)
            try holder.query("SELECT pg_advisory_lock(\(4242))")
            async let inFlight = client.query(statement)
            try await waitUntil("the statement waits for the lock") {
                try await db.superuser.query("SELECT 1 FROM pg_stat_activity WHERE pid = \(pid) AND wait_event_type = 'Lock'")
                    .count > 0
            }
            client.close()
            try holder.query("SELECT pg_advisory_unlock(\(4242))")
            #expect(try await inFlight.first?.decode(1, as: Int.self) == 7)
            let error = await captureError { try await client.query("SELECT 1") } as? PostgresError
            #expect(error?.code == .poolClosed)
        }
    }
}
