import EventStore
import Foundation
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// The one follower of the log: NOTIFY wakes it, polling is the truth, a stored checkpoint
/// survives restarts and the global order has no gap for out-of-order commits.
@Suite struct LogFollowerTests {
    /// What a follower's handler received, in order.
    final class Seen: Sendable {
        let events = Mutex<[RecordedEvent]>([])
        var ids: [UUID] { events.withLock { $0.map(\.id) } }
        func add(_ batch: [RecordedEvent]) { events.withLock { $0 += batch } }

        /// Waits until `ids` were all delivered.
        func wait(for ids: [UUID], limit: Duration = .seconds(60), fileID: String = #fileID, line: Int = #line) async throws {
            try await waitUntil("\(ids.count) event(s) delivered", limit: limit, fileID: fileID, line: line) {
                Set(ids).isSubset(of: self.ids)
            }
        }
    }

    @Test func notifyWakesTheFollowerWellBeforeItsPoll() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let first = event(0)
            try await store.append([first], to: stream(), expectedVersion: .noStream)
            let seen = Seen()
            let follower = LogFollower(
                client: db.app, checkpoint: .after(.start),
                configuration: .init(pollInterval: .seconds(60))
            ) { batch, _ in seen.add(batch) }
            let running = Task { try await follower.run() }
            defer { running.cancel() }
            // The first read happens at start; this one proves the follower is up and listening.
            try await seen.wait(for: [first.id])
            try await db.waitForListeners(on: EventStore.notificationChannel)
            let second = event(1)
            try await store.append([second], to: stream(), expectedVersion: .noStream)
            // Delivered well before the 60 s poll: the NOTIFY woke it.
            try await seen.wait(for: [second.id], limit: .seconds(30))
            running.cancel()
            try await running.value
            #expect(seen.ids == [first.id, second.id])
        }
    }

    @Test func pollingDeliversWithoutNotify() async throws {
        try await TestDatabase.with { db in
            let seen = Seen()
            let follower = LogFollower(
                client: db.app, checkpoint: .after(.start),
                configuration: .init(pollInterval: .milliseconds(50), listen: false)
            ) { batch, _ in seen.add(batch) }
            let running = Task { try await follower.run() }
            defer { running.cancel() }
            // Appended on a caller's connection: no NOTIFY is sent.
            let e = event(0)
            _ = try await db.app.withConnection { try EventStore.append([e], to: stream(), expectedVersion: .noStream, on: $0) }
            try await seen.wait(for: [e.id])
            running.cancel()
            try await running.value
        }
    }

    @Test func aRestartedFollowerResumesFromItsStoredCheckpoint() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = "test_follower"
            let seen = Seen()
            func follower() -> LogFollower {
                LogFollower(
                    client: db.owner, checkpoint: .stored(name: name),
                    configuration: .init(batchSize: 2, pollInterval: .milliseconds(50))
                ) { batch, _ in seen.add(batch) }
            }
            let before = (0..<5).map { event($0) }
            for e in before { try await store.append([e], to: stream(), expectedVersion: .noStream) }
            let first = Task { try await follower().run() }
            try await seen.wait(for: before.map(\.id))
            first.cancel()
            try await first.value
            let stored = try await CheckpointStore(client: db.app).checkpoint(name)
            #expect(stored == seen.events.withLock { $0.last?.checkpoint })

            // Appended while no follower runs; the restarted one hands over only these.
            let after = (5..<8).map { event($0) }
            for e in after { try await store.append([e], to: stream(), expectedVersion: .noStream) }
            let second = Task { try await follower().run() }
            try await seen.wait(for: after.map(\.id))
            second.cancel()
            try await second.value
            #expect(seen.ids == (before + after).map(\.id), "each event exactly once, in order")
            #expect(try await follower().catchUp() == 0)
        }
    }

    @Test func aFailingHandlerLeavesTheStoredCheckpointAndEndsRun() async throws {
        try await TestDatabase.with { db in
            struct Refused: Error {}
            try await EventStore(client: db.app).append([event(0)], to: stream(), expectedVersion: .noStream)
            _ = try await readAll(EventStore(client: db.app), after: .start, count: 1)
            let follower = LogFollower(client: db.owner, checkpoint: .stored(name: "refusing")) { _, _ in throw Refused() }
            await #expect(throws: Refused.self) { try await follower.run() }
            #expect(try await CheckpointStore(client: db.app).checkpoint("refusing") == .start)
        }
    }

    @Test func aSecondFollowerOfTheSameNameIsBusyWhileTheFirstHoldsTheCheckpoint() async throws {
        try await TestDatabase.with { db in
            try await EventStore(client: db.app).append([event(0)], to: stream(), expectedVersion: .noStream)
            // The row exists before the holder locks it (a second insert would wait for the holder's).
            _ = try await db.owner.transaction { try CheckpointStore.lock("shared", on: $0) }
            let holder = try PostgresConnection.connect(db.owner.database)
            try holder.execute(unsafeSQL: "BEGIN")
            #expect(try CheckpointStore.lock("shared", on: holder) == .start)
            let follower = LogFollower(client: db.owner, checkpoint: .stored(name: "shared")) { _, _ in }
            #expect(try await follower.runBatch() == .busy)
            try holder.execute(unsafeSQL: "COMMIT")
            _ = try await readAll(EventStore(client: db.app), after: .start, count: 1)
            #expect(try await follower.runBatch() == .applied(1))
        }
    }

    /// Transaction A appends first (lower position, lower transaction id) and commits after B.
    /// A position-ordered reader would store B's checkpoint and never see A.
    @Test func twoTransactionsCommittingOutOfOrderLeaveNoGap() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let seen = Seen()
            let follower = LogFollower(
                client: db.owner, checkpoint: .stored(name: "ordering"),
                configuration: .init(pollInterval: .milliseconds(20))
            ) { batch, _ in seen.add(batch) }
            let running = Task { try await follower.run() }
            defer { running.cancel() }

            let a = event(1), b = event(2)
            let appended = Mutex(false)
            let release = DispatchSemaphore(value: 0)
            let slow = Task {
                try await db.app.transaction { connection in
                    _ = try EventStore.append([a], to: stream("a"), expectedVersion: .noStream, on: connection)
                    appended.withLock { $0 = true }
                    release.wait()  // on the connection's own thread
                }
                store.notifyAppended()
            }
            try await waitUntil("A appended, its transaction open") { appended.withLock { $0 } }
            try await store.append([b], to: stream("b"), expectedVersion: .noStream)
            // B is committed but sorts after the open A: a read of the global order holds back, not
            // skipping ahead (the follower reads the same way).
            #expect(try await store.readAll(after: .start, limit: 10).isEmpty)
            #expect(seen.ids.isEmpty)
            release.signal()
            try await slow.value
            try await seen.wait(for: [a.id, b.id])
            running.cancel()
            try await running.value
            let delivered = seen.events.withLock { $0 }
            #expect(delivered.map(\.id) == [a.id, b.id])
            #expect(delivered[0].position < delivered[1].position)
            #expect(try await CheckpointStore(client: db.app).checkpoint("ordering") == delivered[1].checkpoint)
        }
    }

    @Test func aNotifiedEventHeldBehindTheHorizonIsReadSoonAfterWithoutAnotherNotice() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let seen = Seen()
            let follower = LogFollower(
                client: db.app, checkpoint: .after(.start), configuration: .init(pollInterval: .seconds(60))
            ) { batch, _ in seen.add(batch) }
            let running = Task { try await follower.run() }
            defer { running.cancel() }
            try await db.waitForListeners(on: EventStore.notificationChannel)
            // A transaction that appends nothing holds the readable horizon (it has a transaction
            // id) while an event is appended and notified; it ends without a notice of its own.
            let holding = Mutex(false)
            let release = DispatchSemaphore(value: 0)
            let holder = Task {
                try await db.app.transaction { connection in
                    _ = try connection.query("SELECT pg_current_xact_id()")
                    holding.withLock { $0 = true }
                    release.wait()  // on the connection's own thread
                }
            }
            try await waitUntil("the holder has a transaction id") { holding.withLock { $0 } }
            let held = event(1)
            try await store.append([held], to: stream(), expectedVersion: .noStream)
            #expect(try await store.readAll(after: .start, limit: 10).isEmpty)
            release.signal()
            try await holder.value
            // Read well before the 60 s poll, with no notification after the horizon moved.
            try await seen.wait(for: [held.id], limit: .seconds(30))
        }
    }
}
