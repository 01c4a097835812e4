import Foundation
import JourneyTesting
import Postgres
import Testing

/// A transaction's `BEGIN` leaves with its first statement and enqueued writes with `COMMIT`.
@Suite struct DeferredStatementTests {
    @Test func aTransactionCostsOneRoundTripPerStatementAndEnqueuedWritesRideWithCommit() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int)")
            let trips = try await db.owner.withConnection { connection in
                // Prepared once outside the count: later uses run by name.
                try connection.transaction {
                    try $0.query("SELECT count(*) FROM t"); try $0.enqueue("INSERT INTO t VALUES (0)")
                }
                let before = connection.roundTrips
                try connection.transaction { connection in
                    #expect(connection.isInTransaction)
                    #expect(try connection.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 1)
                    try connection.enqueue("INSERT INTO t VALUES (0)")
                }
                return connection.roundTrips - before
            }
            // [BEGIN, SELECT] then [INSERT, COMMIT]: two, where sending each alone took four.
            #expect(trips == 2)
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 2)
        }
    }

    @Test func aTransactionThatRunsNothingSendsNothing() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let (trips, inside, after) = try await db.owner.withConnection { connection in
                let before = connection.roundTrips
                let inside = try connection.transaction { $0.isInTransaction }
                return (connection.roundTrips - before, inside, connection.isInTransaction)
            }
            #expect(trips == 0)
            #expect(inside)
            #expect(!after)
        }
    }

    @Test func aFailingEnqueuedWriteFailsTheNextStatementAndTheWholeTransaction() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int CHECK (n > 0))")
            let error =
                await captureError {
                    try await db.owner.transaction { connection in
                        try connection.query("INSERT INTO t VALUES (1)")
                        try connection.enqueue("INSERT INTO t VALUES (-1)")
                        try connection.query("INSERT INTO t VALUES (2)")
                    }
                } as? PostgresError
            #expect(error?.sqlState == "23514")
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 0)
            // The connection went back clean: the next transaction commits.
            try await db.owner.transaction { try $0.enqueue("INSERT INTO t VALUES (3)") }
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func aFailingWriteEnqueuedLastRollsBackAtCommit() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int CHECK (n > 0))")
            let error =
                await captureError {
                    try await db.owner.transaction { connection in
                        try connection.query("INSERT INTO t VALUES (1)")
                        try connection.enqueue("INSERT INTO t VALUES (-1)")
                    }
                } as? PostgresError
            #expect(error?.sqlState == "23514")
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func enqueueOutsideATransactionRunsAtOnce() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int)")
            try await db.owner.withConnection { try $0.enqueue("INSERT INTO t VALUES (1)") }
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func theIsolationLevelLeavesWithTheFirstStatement() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let level = try await db.owner.transaction(isolation: "REPEATABLE READ") {
                try $0.query("SELECT current_setting('transaction_isolation')").first?.decode(0, as: String.self)
            }
            #expect(level == "repeatable read")
        }
    }

    @Test func aNestedTransactionIsRefusedAndTheOuterOneStillCommits() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE t (n int)")
            let nested = try await db.owner.transaction { connection -> PostgresError? in
                try connection.query("INSERT INTO t VALUES (1)")
                do {
                    _ = try connection.transaction { try $0.query("INSERT INTO t VALUES (2)") }
                    return nil
                } catch let error as PostgresError { return error }
            }
            #expect(nested?.message.contains("already open") == true)
            #expect(try await db.owner.query("SELECT count(*) FROM t").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func aSessionKilledInsideAPipelineAnswersUnavailableAndThePoolLendsAWorkingConnection() async throws {
        try await TestDatabase.with(migrated: false) { (db: TestDatabase) async throws in
            let error =
                await captureError {
                    try await db.owner.transaction { connection in
                        try connection.enqueue("SELECT 1")
                        try connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
                    }
                } as? PostgresError
            #expect(error?.isUnavailable == true, "\(String(describing: error))")
            for _ in 0..<3 {
                #expect(try await db.owner.transaction { try $0.query("SELECT 1").first?.decode(0, as: Int.self) } == 1)
            }
        }
    }
}
