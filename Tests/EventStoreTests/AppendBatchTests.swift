import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// `append_events` as of 0036: several events chain in the write statement, and several events
/// on a new stream are written with the stream row in one statement; both must chain, number
/// and refuse exactly like the single-event paths.
@Suite struct AppendBatchTests {
    /// Batches of every column shape, on new and existing streams: hashes equal `event_hash`
    /// and the Swift hash, each previous hash is the one before, versions and positions follow
    /// the order given, and each stream's head is its last hash.
    @Test func batchesChainLikeEventHash() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            var streams: [StreamName] = []
            for s in 0..<3 {
                let name = stream("batch\(s)")
                streams.append(name)
                var version: Int64 = 0
                var positions: [Int64] = []
                for n in 0..<3 {
                    let events = (0..<(4 + s)).map { i in
                        NewEvent(
                            type: i == 1 ? "Zählung" : "Counted",
                            data: JSONB(text: #"{"n": \#(n), "s": "ç\n\"é\"", "i": \#(i)}"#),
                            metadata: EventMetadata(
                                correlationID: i == 2 ? nil : UUID(), causationID: i == 3 ? UUID() : nil,
                                actor: i == 0 ? nil : "actör-\(i)"))
                    }
                    let expected: ExpectedVersion = n == 0 ? .noStream : (n == 1 ? .exact(version) : .any)
                    let result = try await store.append(events, to: name, expectedVersion: expected)
                    #expect(result.positions.count == events.count)
                    #expect(result.positions == result.positions.sorted())
                    #expect(result.streamVersion == version + Int64(events.count))
                    version = result.streamVersion
                    positions += result.positions
                }
                let read = try await store.readStream(name)
                #expect(read.map(\.streamVersion) == Array(1...version))
                #expect(read.map(\.position) == positions)
                var previous = Data(count: 32)
                for event in read {
                    #expect(EventHash.hash(of: event) == event.hash, "version \(event.streamVersion)")
                    #expect(event.previousHash == previous, "version \(event.streamVersion)")
                    previous = event.hash
                }
                let head = try await db.owner.query(
                    """
                    SELECT s.version, s.head_hash, s.last_transaction_id = (SELECT max(e.transaction_id) FROM events e \
                    WHERE e.stream_name = s.stream_name) FROM streams s WHERE s.stream_name = \(name.rawValue)
                    """
                ).first
                #expect(try head?.decode(0, as: Int64.self) == version)
                #expect(try head?.decode(1, as: Data.self) == previous)
                #expect(try head?.decode(2, as: Bool.self) == true)
            }
            let mismatches = try await db.owner.query(
                """
                SELECT count(*) FROM events WHERE hash <> event_hash(previous_hash, stream_name, stream_version, event_id, \
                event_type, data, correlation_id, causation_id, actor, recorded_at)
                """
            ).first?.decode(0, as: Int64.self)
            #expect(mismatches == 0)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 4 * 3 + 5 * 3 + 6 * 3)
        }
    }

    /// A batch's new stream, retry, wrong version and duplicate ids behave as with one event;
    /// expecting a new stream that exists falls back to the usual path and writes nothing.
    @Test func batchRetriesAndRefusals() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let name = stream("retryN")
            let first = (0..<3).map { event($0) }
            let created = try await store.append(first, to: name, expectedVersion: .noStream)
            #expect(created.streamVersion == 3 && created.positions.count == 3)
            let row = try await db.owner.query(
                """
                SELECT s.version, s.head_hash = e.hash, s.last_transaction_id = e.transaction_id
                FROM streams s JOIN events e ON e.stream_name = s.stream_name AND e.stream_version = 3
                WHERE s.stream_name = \(name.rawValue)
                """
            ).first
            #expect(try row?.decode(0, as: Int64.self) == 3)
            #expect(try row?.decode(1, as: Bool.self) == true)
            #expect(try row?.decode(2, as: Bool.self) == true)
            #expect(try await store.append(first, to: name, expectedVersion: .noStream) == created)
            #expect(try await store.append(first, to: name, expectedVersion: .any) == created)
            let second = (3..<5).map { event($0) }
            let written = try await store.append(second, to: name, expectedVersion: .exact(3))
            #expect(written.streamVersion == 5 && written.positions[0] > created.positions[2])
            #expect(try await store.append(second, to: name, expectedVersion: .exact(3)) == written)

            let notNew = await captureError {
                try await store.append([event(6), event(7)], to: name, expectedVersion: .noStream)
            }
            #expect((notNew as? EventStoreError)?.code == .wrongExpectedVersion)
            #expect((notNew as? EventStoreError)?.currentVersion == 5)
            let partial = await captureError {
                try await store.append([first[0], event(8)], to: name, expectedVersion: .noStream)
            }
            #expect((partial as? EventStoreError)?.code == .duplicateEventID)
            let fresh = stream("freshN")
            let clash = await captureError { try await store.append([event(9)] + second, to: fresh, expectedVersion: .noStream) }
            #expect((clash as? EventStoreError)?.code == .duplicateEventID)
            let repeated = event(10)
            let twice = await captureError {
                try await store.append([repeated, repeated], to: fresh, expectedVersion: .noStream)
            }
            #expect((twice as? EventStoreError)?.code == .duplicateEventID)
            #expect(try await store.streamVersion(fresh) == nil)
            #expect(try await store.streamVersion(name) == 5)
            #expect(try await store.eventCount() == 5)
        }
    }
}
