import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct FoldReadTests {
    @Test func theFoldReadReturnsReadAllsEventsWithTheirBytes() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let texts = [#"{"n": 1}"#, #"{"s": "ação \"q\" \\ 😀\n"}"#, #"{"a": [1, 2.5, null], "b": {"c": true}}"#, "{}"]
            for (n, text) in texts.enumerated() {
                // Journey streams take only journey event types (migration 0041).
                let journeyTypes = ["JourneyStarted", "ProcessCreationRequested", "ProcessCreated"]
                let events = (0...n).map {
                    NewEvent(type: n.isMultiple(of: 2) ? journeyTypes[$0] : "Typed\($0)", data: JSONB(text: text))
                }
                try await store.append(events, to: stream(n.isMultiple(of: 2) ? "journey" : "other"), expectedVersion: .noStream)
            }
            let all = try await readAll(store, after: .start, count: 10)
            #expect(all.count == 10)
            // Pages of 3, as a rebuild reads them: the same events, in the same order, from the same checkpoints.
            var folded: [EventStore.FoldEvent] = []
            while folded.count < all.count {
                let after = folded.last?.checkpoint ?? .start
                let page = try await db.app.withConnection { try EventStore.readAllForFold(after: after, limit: 3, on: $0) }
                #expect(!page.isEmpty && page.count <= 3)
                if page.isEmpty { break }
                folded += page
            }
            #expect(folded.count == all.count)
            for (lean, full) in zip(folded, all) {
                #expect(lean.position == full.position && lean.transactionID == full.transactionID)
                #expect(lean.checkpoint == full.checkpoint)
                #expect(lean.streamName == full.streamName.rawValue && lean.streamVersion == full.streamVersion)
                #expect(lean.type == full.type)
                #expect(lean.data == Array(full.data.text.utf8))
            }
        }
    }
}
