import EventStore
import Foundation
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// The checker of event-store-notes.md: concurrent writers with rolled-back appends and one
/// transaction held open for seconds, while a follower follows the global order.
@Suite struct OrderingCheckerTests {
    final class Delivered: Sendable {
        let events = Mutex<[RecordedEvent]>([])
        let slowDeliveredAt = Mutex<ContinuousClock.Instant?>(nil)
    }

    @Test func readerSkipsNothingAndDeliversNothingTwice() async throws {
        try await TestDatabase.with(poolSize: 10) { db in
            let streams = (0..<12).map { stream("c\($0)") }
            let delivered = Delivered()
            let slowEvent = event(-1, type: "Slow")
            struct Rollback: Error {}

            let follower = LogFollower(
                client: db.app, checkpoint: .after(.start),
                configuration: .init(batchSize: 50, pollInterval: .milliseconds(50))
            ) { batch, _ in
                let now = ContinuousClock.now
                delivered.events.withLock { $0 += batch }
                if batch.contains(where: { $0.id == slowEvent.id }) { delivered.slowDeliveredAt.withLock { $0 = now } }
            }
            let reader = Task { try await follower.run() }
            defer { reader.cancel() }

            // One transaction appends early and stays open for 3 s.
            let slowCommittedAt = Mutex<ContinuousClock.Instant?>(nil)
            let holder = Task {
                try await db.app.transaction { connection in
                    _ = try EventStore.append([slowEvent], to: stream("slow"), expectedVersion: .noStream, on: connection)
                    Thread.sleep(forTimeInterval: 3)
                }
                slowCommittedAt.withLock { $0 = ContinuousClock.now }
            }

            // Four writers: single appends, small batches, some held briefly, one in eight rolled back.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        var generator = SplitMix(seed: UInt64(writer + 1))
                        for n in 0..<120 {
                            let target = streams[Int(generator.next() % UInt64(streams.count))]
                            let batch = (0...Int(generator.next() % 3)).map { event(writer * 1000 + n + $0) }
                            let rollback = generator.next() % 8 == 0
                            let hold = Double(generator.next() % 4) / 1000
                            _ = await captureError {
                                try await db.app.transaction { connection in
                                    _ = try EventStore.append(batch, to: target, expectedVersion: .any, on: connection)
                                    if hold > 0 { Thread.sleep(forTimeInterval: hold) }
                                    if rollback { throw Rollback() }
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await holder.value

            let stored = try await db.app.query("SELECT event_id FROM events").map { try $0.decode(0, as: UUID.self) }
            try await waitUntil("every stored event delivered") { delivered.events.withLock { $0.count } >= stored.count }
            // Stopped before counting: a batch in flight (a duplicate, say) is counted too.
            reader.cancel()
            _ = try? await reader.value
            let events = delivered.events.withLock { $0 }

            let ids = events.map(\.id)
            #expect(Set(ids).count == ids.count, "an event was delivered twice")
            let skipped = Set(stored).subtracting(ids)
            #expect(skipped.isEmpty, "skipped \(skipped.count) of \(stored.count)")
            #expect(Set(ids).subtracting(stored).isEmpty, "delivered events that are not stored")
            #expect(stored.count > 300)
            var versions: [StreamName: Int64] = [:]
            var reported = false
            for event in events {
                let expected = (versions[event.streamName] ?? 0) + 1
                if event.streamVersion != expected, !reported {
                    reported = true
                    let rows = try await db.app.query(
                        """
                        SELECT stream_version, transaction_id::text, position FROM events
                        WHERE stream_name = \(event.streamName.rawValue) ORDER BY stream_version
                        """
                    ).map {
                        "v\(try $0.decode(0, as: Int64.self))@\(try $0.decode(1, as: String.self)):\(try $0.decode(2, as: Int64.self))"
                    }
                    let seen = events.filter { $0.streamName == event.streamName }.map {
                        "v\($0.streamVersion)@\($0.transactionID):\($0.position)"
                    }
                    Issue.record("stream \(event.streamName) out of order; stored \(rows); delivered \(seen)")
                }
                versions[event.streamName] = event.streamVersion
            }
            let delay = delivered.slowDeliveredAt.withLock { $0 }.flatMap { at in slowCommittedAt.withLock { $0 }.map { at - $0 }
            }
            #expect(delay != nil && delay! < .seconds(2), "held transaction delivered \(String(describing: delay)) after commit")
        }
    }

    @Test func anAppendWhoseTransactionIDIsOlderThanTheStreamsLastWriterIsRefused() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = stream()
            try await store.append([event(1)], to: name, expectedVersion: .noStream)
            let drawn = Mutex(false)
            let newerCommitted = DispatchSemaphore(value: 0)
            let older = Task {
                try await db.app.transaction { connection in
                    try connection.query("SELECT pg_current_xact_id()")
                    drawn.withLock { $0 = true }
                    newerCommitted.wait()  // on the connection's own thread
                    _ = try EventStore.append([event(3)], to: name, expectedVersion: .any, on: connection)
                }
            }
            try await waitUntil("the older transaction drew its id") { drawn.withLock { $0 } }
            let newer = await captureError { try await store.append([event(2)], to: name, expectedVersion: .exact(1)) }
            newerCommitted.signal()
            if let newer { throw newer }
            let error = await captureError { try await older.value } as? EventStoreError
            #expect(error?.code == .orderConflict)
            #expect(try await store.streamVersion(name) == 2)
        }
    }
}

/// A small deterministic generator for test schedules.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
