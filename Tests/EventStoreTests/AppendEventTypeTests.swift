@testable import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

/// Migration 0041: the append functions take only the event types a stream's prefix allows and
/// well-formed actors, on the direct path, the group path and to a caller of the SQL function.
@Suite struct AppendEventTypeTests {
    @Test func journeyStreamsTakeOnlyJourneyEventTypes() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            let journey = StreamName.journey(UUID())
            let refused =
                await captureError {
                    try await store.append(
                        [event(1, type: "JourneyStarted"), event(2, type: "Counted")], to: journey, expectedVersion: .noStream)
                } as? EventStoreError
            #expect(refused?.code == .eventTypeNotAllowed)
            #expect(refused?.underlying?.sqlState == "JS005")
            #expect(try await store.streamVersion(journey) == nil)
            let webhooks =
                await captureError {
                    try await store.append(
                        [event(1, type: "JourneyStarted")], to: StreamName("unico-webhooks"), expectedVersion: .any)
                } as? EventStoreError
            #expect(webhooks?.code == .eventTypeNotAllowed)
            // The journey's own types, and any well-formed type elsewhere.
            try await store.append(
                [event(1, type: "JourneyStarted"), event(2, type: "TokenIssued")], to: journey, expectedVersion: .noStream)
            try await store.append(
                [event(1, type: "UnmatchedWebhookReceived", actor: "unico-webhook")], to: StreamName("unico-webhooks"),
                expectedVersion: .any)
            try await store.append(
                [event(1, type: "Zählung"), event(2, type: "BenchEvent")], to: stream(), expectedVersion: .noStream)
            // (An empty type is refused before the database as invalid_event.)
            for badType in ["Has space", "a,b", "1Starts", "x\ny", String(repeating: "T", count: 101)] {
                let error = await captureError {
                    try await store.append([event(1, type: badType)], to: stream(), expectedVersion: .any)
                }
                #expect((error as? EventStoreError)?.code == .eventTypeNotAllowed, "\(badType)")
            }
            #expect(try await count(db, "SELECT count(*) FROM events") == 5)
        }
    }

    @Test func actorsAreWellFormed() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app, grouping: .off)
            for actor in [
                "api-key:abcd2345", "worker", "client-token", "retention", "cli", "actör-1", String(repeating: "a", count: 100),
            ] {
                try await store.append([event(1, actor: actor)], to: stream(), expectedVersion: .noStream)
            }
            try await store.append([event(1, actor: nil), event(2, actor: "worker")], to: stream(), expectedVersion: .noStream)
            let written = try await count(db, "SELECT count(*) FROM events")
            for actor in [
                "", "two words", "maria@example.com", "line\nbreak", "tab\there", "quote\"d", "back\\slash", "{brace}",
                "comma,separated", "NULL", "1digit", "zero\u{200B}width", "no\u{00A0}break", String(repeating: "a", count: 101),
            ] {
                let name = stream()
                let error =
                    await captureError {
                        try await store.append(
                            [event(1, actor: "worker"), event(2, actor: actor)], to: name, expectedVersion: .noStream)
                    } as? EventStoreError
                #expect(error?.code == .invalidActor, "\(actor)")
                #expect(
                    actor.isEmpty || error.map { !$0.message.contains(actor) } ?? false, "the message does not repeat the actor")
            }
            #expect(try await count(db, "SELECT count(*) FROM events") == written)
            #expect(try await count(db, "SELECT count(*) FROM streams WHERE version = 0") == 0)
            // The SQL function refuses a caller that bypasses EventStore the same way.
            let direct =
                await captureError {
                    try await db.app.query(
                        """
                        SELECT * FROM append_events('journey-x', 0, ARRAY[gen_random_uuid()], ARRAY['Counted'], ARRAY['{}'::jsonb],
                                                    ARRAY[NULL::uuid], ARRAY[NULL::uuid], ARRAY['worker'])
                        """)
                } as? PostgresError
            #expect(direct?.sqlState == "JS005")
        }
    }

    /// A refused append in a group is not taken (outcome 6), the others are written, and the
    /// grouped store refuses it with the direct path's error.
    @Test func groupAppendsRefuseLikeTheDirectPath() async throws {
        try await TestDatabase.with { db in
            let good = StreamName.journey(UUID()), badType = StreamName.journey(UUID()), badActor = stream("actor")
            let existing = StreamName.journey(UUID())
            let direct = EventStore(client: db.app, grouping: .off)
            try await direct.append([event(1, type: "JourneyStarted")], to: existing, expectedVersion: .noStream)
            let appends = [
                GroupedAppend(events: [event(1, type: "JourneyStarted")], stream: good, expected: .noStream),
                GroupedAppend(
                    events: [event(1, type: "JourneyStarted"), event(2, type: "Counted")], stream: badType, expected: .noStream),
                GroupedAppend(events: [event(1, actor: "a b")], stream: badActor, expected: .noStream),
                GroupedAppend(events: [event(2, type: "Counted")], stream: existing, expected: .exact(1)),
            ]
            let outcomes = try await db.app.withConnection { try EventStore.appendGroup(appends, on: $0) }
            guard case .written(let result) = outcomes[0] else { Issue.record("good: \(outcomes[0])"); return }
            #expect(result.streamVersion == 1)
            for index in 1...3 {
                guard case .alone = outcomes[index] else { Issue.record("append \(index): \(outcomes[index])"); continue }
            }
            #expect(try await direct.streamVersion(badType) == nil)
            #expect(try await direct.streamVersion(badActor) == nil)
            #expect(try await direct.streamVersion(existing) == 1)

            let grouped = EventStore(client: db.app)
            async let first = captureError {
                try await grouped.append(
                    [event(1, type: "JourneyStarted"), event(2, type: "Counted")], to: badType, expectedVersion: .noStream)
            }
            async let second = captureError {
                try await grouped.append([event(1, actor: "a b")], to: badActor, expectedVersion: .noStream)
            }
            async let third = grouped.append(
                [event(1, type: "JourneyStarted")], to: StreamName.journey(UUID()), expectedVersion: .noStream)
            #expect((await first as? EventStoreError)?.code == .eventTypeNotAllowed)
            #expect((await second as? EventStoreError)?.code == .invalidActor)
            #expect(try await third.streamVersion == 1)
            #expect(try await count(db, "SELECT count(*) FROM streams WHERE version = 0") == 0)
        }
    }

    private func count(_ db: TestDatabase, _ sql: PostgresQuery) async throws -> Int64 {
        try await db.owner.query(sql).first?.decode(0, as: Int64.self) ?? -1
    }
}
