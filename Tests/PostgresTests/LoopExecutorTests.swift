import Foundation
import JourneyTesting
import Postgres
import Testing

/// Tasks that prefer `PostgresClient.loopExecutor` run on the pool's event-loop thread; these
/// check they get the same answers as the default path, and that transactions, cancellation
/// and closing the pool neither deadlock the loop nor strand a task.
@Suite struct LoopExecutorTests {
    @Test(arguments: [true, false]) func answersEqualTheDefaultPath(cached: Bool) async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE items (n int PRIMARY KEY, label text)")
            try await db.owner.query(
                "INSERT INTO items SELECT n, CASE WHEN n % 2 = 0 THEN 'even' END FROM generate_series(1, 5) n")
            let client = try PostgresClient(
                url: db.ownerURL, configuration: .init(maxConnections: 3, statementCacheCapacity: cached ? 16 : 0))
            defer { client.close() }
            for statement in EventLoopQueryTests.statements {
                let expected = try EventLoopQueryTests.rows(try await client.query(statement))
                let expectedCount = try await client.query(statement).affectedRows
                try await client.withLoopExecutor {
                    try await withThrowingTaskGroup(of: Bool.self) { group in
                        for _ in 0..<12 {
                            group.addTask {
                                let rows = try await client.query(statement)
                                #expect(try EventLoopQueryTests.rows(rows) == expected)
                                #expect(rows.affectedRows == expectedCount)
                                return client.isOnLoopThread
                            }
                        }
                        // Child tasks inherit the preference: they continue on the loop thread.
                        for try await onLoop in group { #expect(onLoop) }
                    }
                }
            }
            let duplicate: PostgresQuery = "INSERT INTO items VALUES (\(1), 'again')"
            let expected = await captureError { try await client.query(duplicate) } as? PostgresError
            #expect(expected?.sqlState == "23505")
            for _ in 0..<3 {
                let error =
                    await client.withLoopExecutor { await captureError { try await client.query(duplicate) } } as? PostgresError
                #expect(error?.code == expected?.code)
                #expect(error?.sqlState == expected?.sqlState)
                #expect(error?.constraint == "items_pkey")
            }
            let syntax =
                await client.withLoopExecutor { await captureError { try await client.query("SELEC 1") } } as? PostgresError
            #expect(syntax?.sqlState == "42601")
            #expect(!client.isOnLoopThread)
        }
    }

    @Test func transactionsFromTheLoopExecutorDoNotBlockItsQueries() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE items (n int PRIMARY KEY, label text)")
            let client = try PostgresClient(url: db.ownerURL, configuration: .init(maxConnections: 2))
            defer { client.close() }
            let (began, beginning) = AsyncStream<Void>.makeStream()
            try await client.withLoopExecutor {
                // A transaction holds one connection (on its own thread) while the loop serves queries
                // on the other; the queries' answers resume tasks on the loop thread meanwhile.
                async let transaction: Int = client.transaction { connection in
                    try connection.query("INSERT INTO items VALUES (\(1), 'one')")
                    beginning.yield()
                    try connection.query("SELECT pg_sleep(\(0.3))")
                    return try connection.query("SELECT count(*)::int FROM items").first!.decode(0, as: Int.self)
                }
                for await _ in began { break }
                for n in 0..<20 { #expect(try await client.query("SELECT \(n)::int").first?.decode(0, as: Int.self) == n) }
                #expect(try await transaction == 1)
                // A BEGIN sent alone is rolled back on the loop thread itself.
                try await client.query("BEGIN")
                #expect(try await client.withConnection { $0.isInTransaction } == false)
                // A failing transaction rolls back.
                let error =
                    await captureError {
                        try await client.transaction {
                            try $0.query("INSERT INTO items VALUES (\(2), 'two')");
                            try $0.query("INSERT INTO items VALUES (\(1), 'dup')")
                        }
                    } as? PostgresError
                #expect(error?.code == .uniqueViolation)
            }
            #expect(try await client.query("SELECT count(*)::int FROM items").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func aTaskOnTheLoopExecutorWaitingForAConnectionCanBeCancelled() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1))
            defer { client.close() }
            try await client.query("SELECT 1")
            // The holder keeps the only connection (on the connection's own thread) until released.
            let (held, holding) = AsyncStream<Void>.makeStream()
            let release = DispatchSemaphore(value: 0)
            async let holder: Void = client.withConnection { _ in
                holding.yield()
                release.wait()
            }
            for await _ in held { break }
            let waiting = Task(executorPreference: client.loopExecutor) { try await client.query("SELECT 1") }
            let early = Task(executorPreference: client.loopExecutor) { try await client.query("SELECT 2") }
            early.cancel()
            #expect(await captureError { try await early.value } is CancellationError)
            // Cancelled once it waits in the pool's queue.
            try await waitUntil("the query waits for the held connection") { client.waitingCallers == 1 }
            waiting.cancel()
            #expect(await captureError { try await waiting.value } is CancellationError)
            release.signal()
            try await holder
            let after = Task(executorPreference: client.loopExecutor) { try await client.query("SELECT 3").count }
            #expect(try await after.value == 1)
        }
    }

    @Test func closingThePoolReleasesTasksThatPreferTheExecutor() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 2))
            try await client.query("SELECT \(1)::int")
            let (started, starting) = AsyncStream<Void>.makeStream()
            let workers = (0..<4).map { _ in
                Task(executorPreference: client.loopExecutor) { () -> PostgresError? in
                    starting.yield()
                    while true {
                        do { try await client.query("SELECT \(1)::int") } catch let error as PostgresError { return error } catch
                        { return nil }
                    }
                }
            }
            var count = 0
            for await _ in started {
                count += 1
                if count == workers.count { break }
            }
            client.close()
            for worker in workers { #expect(await worker.value?.code == .poolClosed) }
            // A task still preferring the stopped loop's executor runs on the global executor.
            let late = Task(executorPreference: client.loopExecutor) { () -> Bool in
                await Task.yield()
                return client.isOnLoopThread
            }
            #expect(await late.value == false)
        }
    }
}
