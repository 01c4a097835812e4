@testable import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// An append sent with the transaction's next statement or COMMIT (a stream only the caller knows).
@Suite struct EnqueuedAppendTests {
    @Test func theAppendLeavesWithCommitAndIsWrittenWithTheTransaction() async throws {
        try await TestDatabase.with { db in
            let fresh = stream()
            let trips = try await db.app.withConnection { connection in
                // BEGIN and the SELECT prepared once, as on a connection in use.
                _ = try connection.transaction { try $0.query("SELECT 1") }
                return try connection.transaction { connection in
                    let before = connection.roundTrips
                    _ = try connection.query("SELECT 1")
                    try EventStore.enqueueAppend([event(1), event(2)], to: fresh, expectedVersion: .noStream, on: connection)
                    return connection.roundTrips - before
                }
            }
            // The SELECT (with the BEGIN) only: the append left with COMMIT.
            #expect(trips == 1)
            let store = EventStore(client: db.app, grouping: .off)
            #expect(try await store.streamVersion(fresh) == 2)
            #expect(try await store.readStream(fresh).map(\.streamVersion) == [1, 2])
        }
    }

    @Test func aRefusedAppendFailsTheTransactionAtCommitAndWritesNothing() async throws {
        try await TestDatabase.with { (db: TestDatabase) async throws in
            let journey = StreamName.journey(UUID())
            let other = stream()
            let error =
                await captureError {
                    try await db.app.transaction { connection in
                        try EventStore.enqueueAppend([event(1)], to: other, expectedVersion: .noStream, on: connection)
                        try EventStore.enqueueAppend(
                            [event(1, type: "Counted")], to: journey, expectedVersion: .noStream, on: connection)
                    }
                } as? PostgresError
            #expect(error?.sqlState == "JS005")
            let store = EventStore(client: db.app, grouping: .off)
            #expect(try await store.streamVersion(journey) == nil)
            #expect(try await store.streamVersion(other) == nil, "the whole transaction rolled back")
        }
    }
}
