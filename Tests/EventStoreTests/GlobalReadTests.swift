import EventStore
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct GlobalReadTests {
    @Test func readAllFollowsTheGlobalOrderInPages() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            var written: [UUID] = []
            for n in 0..<7 {
                let e = event(n)
                written.append(e.id)
                try await store.append([e], to: stream(), expectedVersion: .noStream)
            }
            // Other tests' transactions in the shared cluster may hold the horizon back: poll.
            var checkpoint = GlobalCheckpoint.start
            var read: [UUID] = []
            try await waitUntil("all \(written.count) events read in pages") {
                let page = try await store.readAll(after: checkpoint, limit: 3)
                #expect(page.count <= 3)
                if let last = page.last {
                    read += page.map(\.id)
                    checkpoint = last.checkpoint
                }
                return read.count >= written.count
            }
            #expect(read == written)
            let second = try await store.readAll(after: .start, limit: 2)[1]
            let resumed = try await store.checkpoint(atPosition: second.position)
            #expect(resumed == second.checkpoint)
            #expect(try await readAll(store, after: resumed!, count: 5).map(\.id) == Array(written.dropFirst(2)))
        }
    }

    @Test func anOpenTransactionHoldsReadersBackInsteadOfBeingSkipped() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            let slow = event(1)
            // The open transaction runs on a connection and a thread of its own, and stays open until
            // the test has read: no sleep decides whether it is still open.
            let appended = DispatchSemaphore(value: 0)
            let commit = DispatchSemaphore(value: 0)
            let configuration = try PostgresConfiguration(db.appURL)
            let holder = Task {
                try await offPool {
                    do {
                        let connection = try PostgresConnection.connect(configuration)
                        try connection.transaction { connection in
                            _ = try EventStore.append([slow], to: stream("slow"), expectedVersion: .noStream, on: connection)
                            appended.signal()
                            commit.wait()
                        }
                    } catch {
                        appended.signal()
                        throw error
                    }
                }
            }
            defer { commit.signal() }
            try await offPool { appended.wait() }
            let fast = event(2)
            try await store.append([fast], to: stream("fast"), expectedVersion: .noStream)
            // The later, committed append waits behind the open transaction's lower position.
            let early = try await store.readAll(after: .start, limit: 10)
            commit.signal()
            #expect(early.isEmpty, "a committed event was readable past an open transaction's")
            _ = try await holder.value
            let all = try await readAll(store, after: .start, count: 2)
            #expect(Set(all.map(\.id)) == [slow.id, fast.id])
        }
    }
}

/// Reads until `count` events arrived (other tests' transactions can delay the horizon).
func readAll(_ store: EventStore, after checkpoint: GlobalCheckpoint, count: Int) async throws -> [RecordedEvent] {
    var events: [RecordedEvent] = []
    try await waitUntil("\(count) events readable") {
        events += try await store.readAll(after: events.last?.checkpoint ?? checkpoint, limit: 100)
        return events.count >= count
    }
    return events
}
