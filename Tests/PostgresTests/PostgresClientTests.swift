import Foundation
import JourneyTesting
import Postgres
import Synchronization
import Testing

@Suite struct PostgresClientTests {
    @Test func poolNeverOpensMoreThanItsLimit() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 3))
            defer { client.close() }
            let counters = Counters()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await client.withConnection { connection in
                            let now = counters.busy.add(1, ordering: .relaxed).newValue
                            _ = counters.peak.max(now, ordering: .relaxed)
                            try connection.query("SELECT pg_sleep(0.05)")
                            counters.busy.subtract(1, ordering: .relaxed)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(counters.peak.load(ordering: .relaxed) == 3)
            #expect(client.openConnections == 3)
            let backends = try await db.superuser.query(
                """
                SELECT count(*) FROM pg_stat_activity WHERE datname = \(db.name) AND usename = 'journeys_app'
                """
            ).first!.decode(0, as: Int.self)
            #expect(backends == 3)
        }
    }

    @Test func waitingTooLongForAConnectionTimesOut() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let client = try PostgresClient(url: db.appURL, configuration: .init(maxConnections: 1, acquireTimeout: 0.2))
            defer { client.close() }
            // The holder keeps the only connection (on the connection's own thread) until released.
            let (held, holding) = AsyncStream<Void>.makeStream()
            let release = DispatchSemaphore(value: 0)
            async let holder: Void = client.withConnection { _ in
                holding.yield()
                release.wait()
            }
            for await _ in held { break }
            let error = await captureError { try await client.query("SELECT 1") } as? PostgresError
            release.signal()
            #expect(error?.code == .poolTimeout)
            try await holder
            #expect(try await client.query("SELECT 1").count == 1)
        }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int)")
            struct Abort: Error {}
            let error = await captureError {
                try await db.owner.transaction { connection in
                    try connection.query("INSERT INTO t VALUES (1)")
                    throw Abort()
                }
            }
            #expect(error is Abort)
            _ = try await db.owner.transaction { try $0.query("INSERT INTO t VALUES (2)") }
            let rows = try await db.owner.query("SELECT n FROM t")
            #expect(try rows.map { try $0.decode(0, as: Int.self) } == [2])
        }
    }

    @Test func pipelineSendsABatchAndStopsAfterAFailure() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int PRIMARY KEY)")
            let results = try await db.owner.withConnection { connection in
                try connection.pipeline([
                    "INSERT INTO t VALUES (\(1))", "INSERT INTO t VALUES (\(2))", "SELECT count(*) FROM t",
                ])
            }
            #expect(results.count == 3)
            #expect(try results[2].get().first?.decode(0, as: Int.self) == 2)
            let failing = try await db.owner.withConnection { connection in
                try connection.pipeline(["INSERT INTO t VALUES (\(1))", "INSERT INTO t VALUES (\(3))"])
            }
            let first = failing[0]
            guard case .failure(let error) = first else { Issue.record("duplicate insert succeeded"); return }
            #expect(error.code == .uniqueViolation)
            guard case .failure = failing[1] else { Issue.record("statement after a failure ran"); return }
            // The connection is usable afterwards.
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 2)
        }
    }

    @Test func listenerDeliversNotifications() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let listener = PostgresListener(try PostgresConfiguration(db.appURL), channels: ["test_channel"])
            let (stream, continuation) = AsyncStream<PostgresListener.Event>.makeStream()
            let task = Task { await listener.run { continuation.yield($0) } }
            defer { task.cancel() }
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == .listening)
            try await db.app.withConnection { try $0.notify("test_channel", payload: "hello 'world'") }
            guard case .notification(let note)? = await iterator.next() else {
                Issue.record("no notification")
                return
            }
            #expect(note.channel == "test_channel")
            #expect(note.payload == "hello 'world'")
        }
    }
}

private final class Counters: Sendable {
    let busy = Atomic<Int>(0)
    let peak = Atomic<Int>(0)
}
