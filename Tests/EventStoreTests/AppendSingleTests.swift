import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// `append_events` as of 0033: one event takes its own path (one hash expression, a VALUES
/// insert); it must chain, number and refuse exactly like the several-event path.
@Suite struct AppendSingleTests {
    /// Single appends of every column shape, interleaved with several-event appends, on the
    /// direct path: hashes equal `event_hash` and the Swift hash, each previous hash is the
    /// one before, and the stream's head is the last hash.
    @Test func singleEventsChainLikeEventHash() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let name = stream("single")
            var version: Int64 = 0
            var positions: [Int64] = []
            for n in 0..<8 {
                let count = n == 4 ? 3 : 1
                let events = (0..<count).map { i in
                    NewEvent(
                        type: n == 1 ? "Zählung" : "Counted", data: JSONB(text: #"{"n": \#(n), "s": "ç\n\"é\"", "i": \#(i)}"#),
                        metadata: EventMetadata(
                            correlationID: n == 2 ? nil : UUID(), causationID: n == 3 ? UUID() : nil,
                            actor: n == 5 ? nil : "actör-\(n)"))
                }
                let expected: ExpectedVersion = n == 0 ? .noStream : (n.isMultiple(of: 2) ? .any : .exact(version))
                let result = try await store.append(events, to: name, expectedVersion: expected)
                #expect(result.positions.count == count)
                #expect(result.streamVersion == version + Int64(count))
                version = result.streamVersion
                positions += result.positions
            }
            let read = try await store.readStream(name)
            #expect(read.map(\.streamVersion) == Array(1...10))
            #expect(read.map(\.position) == positions)
            #expect(positions == positions.sorted())
            var previous = Data(count: 32)
            for event in read {
                #expect(EventHash.hash(of: event) == event.hash, "version \(event.streamVersion)")
                #expect(event.previousHash == previous, "version \(event.streamVersion)")
                previous = event.hash
            }
            let mismatches = try await db.owner.query(
                """
                SELECT count(*) FROM events WHERE hash <> event_hash(previous_hash, stream_name, stream_version, event_id, \
                event_type, data, correlation_id, causation_id, actor, recorded_at)
                """
            ).first?.decode(0, as: Int64.self)
            #expect(mismatches == 0)
            let head = try await db.owner.query("SELECT version, head_hash FROM streams WHERE stream_name = \(name.rawValue)")
                .first
            #expect(try head?.decode(0, as: Int64.self) == 10)
            #expect(try head?.decode(1, as: Data.self) == previous)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 10)
        }
    }

    /// A single event's new stream, retry, wrong version and duplicate id behave as with several
    /// events; expecting a new stream that exists falls back to the usual path.
    @Test func singleEventRetriesAndRefusals() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let name = stream("retry1")
            let first = [event(1)]
            let created = try await store.append(first, to: name, expectedVersion: .noStream)
            #expect(created.streamVersion == 1 && created.positions.count == 1)
            // A new stream's row is written with the event: its head, version and last writer.
            let row = try await db.owner.query(
                """
                SELECT s.version, s.head_hash = e.hash, s.last_transaction_id = e.transaction_id, e.previous_hash
                FROM streams s JOIN events e USING (stream_name) WHERE s.stream_name = \(name.rawValue)
                """
            ).first
            #expect(try row?.decode(0, as: Int64.self) == 1)
            #expect(try row?.decode(1, as: Bool.self) == true)
            #expect(try row?.decode(2, as: Bool.self) == true)
            #expect(try row?.decode(3, as: Data.self) == Data(count: 32))
            #expect(try await store.append(first, to: name, expectedVersion: .noStream) == created)
            #expect(try await store.append(first, to: name, expectedVersion: .any) == created)
            let second = [event(2)]
            let written = try await store.append(second, to: name, expectedVersion: .exact(1))
            #expect(written.streamVersion == 2 && written.positions[0] > created.positions[0])
            #expect(try await store.append(second, to: name, expectedVersion: .exact(1)) == written)

            let wrong = await captureError { try await store.append([event(3)], to: name, expectedVersion: .exact(7)) }
            #expect((wrong as? EventStoreError)?.code == .wrongExpectedVersion)
            #expect((wrong as? EventStoreError)?.currentVersion == 2)
            let notNew = await captureError { try await store.append([event(4)], to: name, expectedVersion: .noStream) }
            #expect((notNew as? EventStoreError)?.code == .wrongExpectedVersion)
            #expect((notNew as? EventStoreError)?.currentVersion == 2)
            let fresh = stream("fresh1")
            let clash = await captureError { try await store.append(second, to: fresh, expectedVersion: .noStream) }
            #expect((clash as? EventStoreError)?.code == .duplicateEventID)
            let clashAny = await captureError { try await store.append(second, to: fresh, expectedVersion: .any) }
            #expect((clashAny as? EventStoreError)?.code == .duplicateEventID)
            #expect(try await store.streamVersion(fresh) == nil)
            #expect(try await store.streamVersion(name) == 2)
            #expect(try await store.eventCount() == 2)
        }
    }

    /// Concurrent single appends with any version to one stream: each gets its own version,
    /// and the chain stays whole (an order conflict is the documented refusal: retried).
    @Test func concurrentSingleEventsKeepTheChain() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let name = stream("race1")
            let versions = try await withThrowingTaskGroup(of: Int64.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        let one = [event(n)]
                        while true {
                            do { return try await store.append(one, to: name, expectedVersion: .any).streamVersion } catch let
                                error as EventStoreError where error.code == .orderConflict
                            {}
                        }
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            #expect(versions.sorted() == Array(1...8))
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 8)
        }
    }
}
