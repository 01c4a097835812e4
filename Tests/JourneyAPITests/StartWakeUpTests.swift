import EventStore
import Foundation
import JourneyTesting
import Postgres
import Synchronization
import Testing

/// A start wakes the log's followers after its events are committed (one wake-up per start,
/// after the attempt's transaction, instead of one per transaction).
@Suite struct StartWakeUpTests {
    @Test func aStartWakesTheFollowersWithAllItsEventsCommitted() async throws {
        try await withJourneys { h in
            let notified = Mutex(0)
            let listening = Mutex(false)
            let listener = PostgresListener(h.database.app.database, channels: [EventStore.notificationChannel])
            let task = Task {
                await listener.run { event in
                    switch event {
                    case .listening: listening.withLock { $0 = true }
                    case .notification: notified.withLock { $0 += 1 }
                    }
                }
            }
            defer { task.cancel() }
            try await waitUntil("the LISTEN connection is up") { listening.withLock { $0 } }

            let answer = try await h.start(key: "wake-up")
            #expect(answer.status == 201)
            let journeyID = try #require(answer["journeyId"] as? String)
            try await waitUntil("a notification") { notified.withLock { $0 } >= 1 }
            #expect(notified.withLock { $0 } >= 1)
            let types = try await h.eventTypes(journeyID)
            #expect(types.first == "JourneyStarted")
            #expect(types.last == "TokenIssued")
        }
    }
}
