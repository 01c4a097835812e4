@testable import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// `append_events_group` as of 0037: appends expecting a new stream insert its row once with the
/// final version and head; one whose stream exists goes the usual way; nothing else changes.
@Suite struct GroupNewStreamTests {
    /// A group of new streams, existing streams, a new stream that exists, a repeated stream and
    /// an empty append: each gets the direct path's outcome, hashes equal `event_hash`, and each
    /// new stream's row holds the last event's version, hash and transaction.
    @Test func newStreamsInAGroupChainAndRefuseLikeTheDirectPath() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let old = stream("old"), taken = stream("taken")
            try await store.append([event(0)], to: old, expectedVersion: .noStream)
            try await store.append([event(0), event(1)], to: taken, expectedVersion: .noStream)
            let fresh = (0..<3).map { stream("new\($0)") }
            let appends = [
                GroupedAppend(events: [event(1)], stream: fresh[0], expected: .noStream),
                GroupedAppend(events: [event(1)], stream: old, expected: .exact(1)),
                GroupedAppend(
                    events: (1...4).map { event($0, actor: $0 == 2 ? nil : "actör") }, stream: fresh[1], expected: .noStream),
                GroupedAppend(events: [event(3)], stream: taken, expected: .noStream),
                GroupedAppend(events: [event(2)], stream: fresh[0], expected: .noStream),
                GroupedAppend(events: [event(1)], stream: fresh[2], expected: .any),
            ]
            let outcomes = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            var positions: [Int64] = []
            for index in [0, 1, 2, 5] {
                guard case .written(let result) = outcomes[index] else {
                    Issue.record("append \(index): \(outcomes[index])"); continue
                }
                let read = try await store.readStream(appends[index].stream)
                #expect(Array(read.suffix(appends[index].events.count).map(\.id)) == appends[index].events.map(\.id))
                #expect(Array(read.suffix(appends[index].events.count).map(\.position)) == result.positions)
                #expect(result.streamVersion == Int64(read.count))
                positions += result.positions
            }
            #expect(positions == positions.sorted(), "positions follow the group's order")
            guard case .refused(let refusal) = outcomes[3] else { Issue.record("taken: \(outcomes[3])"); return }
            #expect(refusal.code == .wrongExpectedVersion && refusal.currentVersion == 2)
            guard case .alone = outcomes[4] else { Issue.record("repeated stream: \(outcomes[4])"); return }
            for name in fresh {
                let row = try await db.owner.query(
                    """
                    SELECT s.version, s.head_hash = e.hash, s.last_transaction_id = e.transaction_id
                    FROM streams s JOIN events e ON e.stream_name = s.stream_name AND e.stream_version = s.version
                    WHERE s.stream_name = \(name.rawValue)
                    """
                ).first
                #expect(try row?.decode(1, as: Bool.self) == true, "\(name.rawValue)")
                #expect(try row?.decode(2, as: Bool.self) == true, "\(name.rawValue)")
            }
            #expect(try await store.streamVersion(fresh[1]) == 4)
            #expect(try await store.streamVersion(taken) == 2)
            let mismatches = try await db.owner.query(
                """
                SELECT count(*) FROM events WHERE hash <> event_hash(previous_hash, stream_name, stream_version, event_id, \
                event_type, data, correlation_id, causation_id, actor, recorded_at)
                """
            ).first?.decode(0, as: Int64.self)
            #expect(mismatches == 0)
            let report = try await ChainVerifier(client: db.app).verify()
            #expect(report.isIntact && report.events == 3 + 1 + 1 + 4 + 1 && report.streams == 5)
        }
    }

    /// A group retried whole (its ids stored by the first write) answers every append with the
    /// first write, new streams included, and writes nothing more.
    @Test func aRetriedGroupOfNewStreamsAnswersTheFirstWrite() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let appends = (0..<3).map { n in
                GroupedAppend(events: (0...n).map { event($0) }, stream: stream("retry\(n)"), expected: .noStream)
            }
            let first = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            let again = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            for (one, two) in zip(first, again) {
                guard case .written(let a) = one, case .written(let b) = two else { Issue.record("\(one) \(two)"); continue }
                #expect(a == b)
            }
            #expect(try await store.eventCount() == 6)
            #expect(try await ChainVerifier(client: db.app).verify().isIntact)
        }
    }
}
