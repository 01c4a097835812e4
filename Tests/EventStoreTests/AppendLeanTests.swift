import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// `append_events` as of 0030: the hash from one `format()` instead of `event_hash`, and the
/// idempotency probe only where a retry is possible; the stand-alone direct path through the
/// client's event loop.
@Suite struct AppendLeanTests {
    /// Every column shape the canonical form distinguishes: NULL metadata, non-ASCII text,
    /// multi-digit versions, several events per append; written directly and grouped.
    @Test func storedHashesEqualEventHashAndTheSwiftHash() async throws {
        try await TestDatabase.with { db in
            let direct = EventStore(client: db.app, grouping: .off)
            let grouped = EventStore(client: db.app)
            let name = stream("hash")
            var version: Int64 = 0
            for n in 0..<6 {
                let store = n.isMultiple(of: 2) ? direct : grouped
                let events = (0..<(n % 3 + 1)).map { i in
                    NewEvent(
                        type: i == 0 ? "Zählung" : "Counted",
                        data: JSONB(text: #"{"n": \#(n), "s": "ç\n\"é\"", "a": [1, 2.50]}"#),
                        metadata: EventMetadata(
                            correlationID: i == 1 ? nil : UUID(), causationID: n == 3 ? UUID() : nil,
                            actor: i == 2 ? nil : "actör-\(n)"))
                }
                let result = try await store.append(events, to: name, expectedVersion: version == 0 ? .noStream : .exact(version))
                version = result.streamVersion
            }
            #expect(version == 12)
            let read = try await direct.readStream(name)
            #expect(read.count == 12)
            for event in read {
                #expect(EventHash.hash(of: event) == event.hash, "version \(event.streamVersion)")
            }
            let mismatches = try await db.owner.query(
                """
                SELECT count(*) FROM events WHERE hash <> event_hash(previous_hash, stream_name, stream_version, event_id, \
                event_type, data, correlation_id, causation_id, actor, recorded_at)
                """
            ).first?.decode(0, as: Int64.self)
            #expect(mismatches == 0)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 12)
        }
    }

    /// The probe runs only with any version or a moved stream: a retry is still found there,
    /// and an id stored elsewhere at the right version is refused by the unique key instead.
    @Test func retriesAreFoundAndDuplicatesRefusedWithoutTheEarlyProbe() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let name = stream("retry")
            let first = [event(1), event(2)]
            let created = try await store.append(first, to: name, expectedVersion: .noStream)
            let third = [event(3)]
            let written = try await store.append(third, to: name, expectedVersion: .exact(2))
            #expect(try await store.append(third, to: name, expectedVersion: .exact(2)) == written)
            // A retry returns the first write's positions and the stream's current version (as before 0030).
            #expect(try await store.append(first, to: name, expectedVersion: .noStream).positions == created.positions)
            #expect(try await store.append(third, to: name, expectedVersion: .any) == written)

            // At the right version, an id stored in another stream: the same error, nothing written.
            let other = stream("other")
            try await store.append([event(9)], to: other, expectedVersion: .noStream)
            let clash = await captureError {
                try await store.append([event(10), first[0]], to: other, expectedVersion: .exact(1))
            }
            #expect((clash as? EventStoreError)?.code == .duplicateEventID)
            let fresh = stream("fresh")
            let clashNew = await captureError { try await store.append([first[1]], to: fresh, expectedVersion: .noStream) }
            #expect((clashNew as? EventStoreError)?.code == .duplicateEventID)
            #expect(try await store.streamVersion(other) == 1)
            #expect(try await store.streamVersion(fresh) == nil)

            // At a wrong version, a stored id still wins over the version error (as before).
            let stale = await captureError { try await store.append([first[0]], to: other, expectedVersion: .exact(7)) }
            #expect((stale as? EventStoreError)?.code == .duplicateEventID)
            let wrong = await captureError { try await store.append([event(11)], to: other, expectedVersion: .exact(7)) }
            #expect((wrong as? EventStoreError)?.code == .wrongExpectedVersion)
            #expect((wrong as? EventStoreError)?.currentVersion == 1)
            #expect(try await store.readStream(name).count == 3)
            #expect(try await store.eventCount() == 4)
        }
    }

    /// The direct stand-alone path maps errors exactly as the connection path does.
    @Test func theDirectPathMapsEveryRefusal() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let empty = await captureError { try await store.append([], to: stream(), expectedVersion: .any) }
            #expect((empty as? EventStoreError)?.code == .invalidEvent)
            let name = stream()
            try await store.append([event(1)], to: name, expectedVersion: .noStream)
            let onConnection = await captureError {
                try await db.app.withConnection {
                    try EventStore.append([event(2)], to: name, expectedVersion: .exact(4), on: $0)
                }
            }
            let standAlone = await captureError { try await store.append([event(2)], to: name, expectedVersion: .exact(4)) }
            #expect((onConnection as? EventStoreError)?.description == (standAlone as? EventStoreError)?.description)
            #expect((standAlone as? EventStoreError)?.currentVersion == 1)
        }
    }
}
