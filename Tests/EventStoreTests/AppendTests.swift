import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct AppendTests {
    @Test func appendsAndReadsAStreamWithMetadata() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = StreamName.journey(UUID())
            let first = event(1, type: "JourneyStarted")
            let result = try await store.append([first, event(2, type: "TokenIssued")], to: name, expectedVersion: .noStream)
            #expect(result.streamVersion == 2)
            #expect(result.positions.count == 2 && result.positions[1] > result.positions[0])
            let read = try await store.readStream(name)
            #expect(read.map(\.streamVersion) == [1, 2])
            #expect(read[0].id == first.id)
            #expect(read[0].type == "JourneyStarted")
            #expect(read[0].data.text == #"{"n": 1}"#)
            #expect(read[0].metadata == first.metadata)
            #expect(read[0].previousHash == Data(repeating: 0, count: 32))
            #expect(read[1].previousHash == read[0].hash)
            #expect(name.rawValue.hasPrefix("journey-"))
            #expect(try await store.readStream(name, from: 2).map(\.streamVersion) == [2])
            #expect(try await store.streamVersion(name) == 2)
            #expect(try await store.readStream(stream("unknown")).isEmpty)
            #expect(try await store.streamVersion(stream("unknown")) == nil)
        }
    }

    @Test func expectedVersionIsCheckedBeforeAnythingIsWritten() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = stream()
            let a = try await store.append([event(1)], to: name, expectedVersion: .noStream)

            let again = await captureError { try await store.append([event(2)], to: name, expectedVersion: .noStream) }
            #expect((again as? EventStoreError)?.code == .wrongExpectedVersion)
            #expect((again as? EventStoreError)?.currentVersion == 1)
            let stale = await captureError { try await store.append([event(2)], to: name, expectedVersion: .exact(5)) }
            #expect((stale as? EventStoreError)?.code == .wrongExpectedVersion)
            let missing = await captureError { try await store.append([event(1)], to: stream(), expectedVersion: .exact(3)) }
            #expect((missing as? EventStoreError)?.currentVersion == 0)

            // No position was drawn by the refused appends.
            let b = try await store.append([event(2)], to: name, expectedVersion: .exact(1))
            #expect(b.positions == [a.positions[0] + 1])
            let c = try await store.append([event(3)], to: name, expectedVersion: .any)
            #expect(c.streamVersion == 3)
        }
    }

    @Test func reappendingTheSameEventIDsReturnsTheFirstWrite() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = stream()
            let events = [event(1), event(2)]
            let first = try await store.append(events, to: name, expectedVersion: .noStream)
            let retry = try await store.append(events, to: name, expectedVersion: .noStream)
            #expect(retry == first)
            #expect(try await store.readStream(name).count == 2)

            let elsewhere = await captureError { try await store.append([events[0]], to: stream(), expectedVersion: .any) }
            #expect((elsewhere as? EventStoreError)?.code == .duplicateEventID)
            let mixed = await captureError { try await store.append([events[0], event(3)], to: name, expectedVersion: .any) }
            #expect((mixed as? EventStoreError)?.code == .duplicateEventID)
            #expect(try await store.readStream(name).count == 2)
        }
    }

    @Test func racingAppendsOnTheSameExpectedVersionHaveExactlyOneWinner() async throws {
        try await TestDatabase.with(poolSize: 10) { db in
            let store = EventStore(client: db.app)
            for expected in [ExpectedVersion.noStream, .exact(1)] {
                let name = stream()
                if expected != .noStream { try await store.append([event(0)], to: name, expectedVersion: .noStream) }
                let outcomes = await withTaskGroup(of: Bool.self) { group in
                    for n in 0..<10 {
                        group.addTask { (try? await store.append([event(n)], to: name, expectedVersion: expected)) != nil }
                    }
                    return await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 }.count == 1, "expected \(expected)")
                #expect(try await store.streamVersion(name) == (expected == .noStream ? 1 : 2))
            }
        }
    }

    @Test func invalidEventsAreRefusedWithNothingWritten() async throws {
        try await TestDatabase.with { db throws in
            let store = EventStore(client: db.app)
            let name = stream()
            let empty = await captureError { try await store.append([], to: name, expectedVersion: .any) }
            #expect((empty as? EventStoreError)?.code == .invalidEvent)
            let badJSON = NewEvent(type: "X", data: JSONB(text: "{not json"))
            let invalid = await captureError { try await store.append([event(1), badJSON], to: name, expectedVersion: .any) }
            #expect((invalid as? EventStoreError)?.code == .invalidEvent)
            let blankType = await captureError { try await store.append([event(1, type: "")], to: name, expectedVersion: .any) }
            #expect((blankType as? EventStoreError)?.code == .invalidEvent)
            let noName = await captureError { try await store.append([event(1)], to: StreamName(""), expectedVersion: .any) }
            #expect((noName as? EventStoreError)?.code == .invalidEvent)
            #expect(try await store.streamVersion(name) == nil)
            #expect(try await db.app.query("SELECT count(*) FROM events").first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func appendJoinsTheCallersTransaction() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let name = stream()
            struct Abort: Error {}
            _ = await captureError {
                try await db.app.transaction { connection in
                    _ = try EventStore.append([event(1)], to: name, expectedVersion: .noStream, on: connection)
                    throw Abort()
                }
            }
            #expect(try await store.streamVersion(name) == nil)
            let result = try await db.app.transaction { connection in
                try EventStore.append([event(1)], to: name, expectedVersion: .noStream, on: connection)
            }
            #expect(result.streamVersion == 1)
        }
    }

    /// The append's statements are planned once per session (generic plans). A plan made while
    /// `events` was empty once chose a sequential scan for the event-id lookup and kept it.
    @Test func appendsProbeIndexesEvenWhenPlannedOnAnEmptyLog() async throws {
        try await TestDatabase.with { db in
            let scans = try await db.app.transaction { connection in
                for n in 0..<8 {
                    let name = stream()
                    _ = try EventStore.append([event(n)], to: name, expectedVersion: .noStream, on: connection)
                    _ = try EventStore.append([event(n), event(n + 1)], to: name, expectedVersion: .exact(1), on: connection)
                    _ = try EventStore.append([event(n)], to: name, expectedVersion: .any, on: connection)
                }
                return try connection.query("SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'events'")
                    .first?.decode(0, as: Int64.self)
            }
            #expect(scans == 0)
        }
    }
}
