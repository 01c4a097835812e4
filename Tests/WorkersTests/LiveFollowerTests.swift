import EventStore
import Foundation
import JourneyDomain
import JourneyStore
import Postgres
import Synchronization
import Testing
import Workers

/// What a worker writes reaches the log's live followers at once: the engine NOTIFYs after every
/// commit, so a subscription polling only every 60 s still delivers the write within 2 s.
@Suite(.serialized) struct LiveFollowerTests {
    /// The streams of the events a subscription delivered, in order.
    final class Delivered: Sendable {
        let events = Mutex<[(stream: String, type: String)]>([])
        func contains(stream: String, type: String? = nil) -> Bool {
            events.withLock { $0.contains { $0.stream == stream && (type == nil || $0.type == type) } }
        }
    }

    @Test func aWorkersExpiryReachesALiveSubscriptionWithoutWaitingForItsPoll() async throws {
        try await withWorkers { h in
            let id = try await h.startCreated()
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)
            let worker = try h.worker()
            try await h.catchUp()
            h.clock.set(expiresAt.addingTimeInterval(2))

            let store = EventStore(client: h.database.app)
            let subscription = EventSubscription(store: store, configuration: .init(pollInterval: 60))
            let delivered = Delivered()
            let follower = Task {
                try await subscription.run(after: .start) { batch in
                    delivered.events.withLock { $0 += batch.map { ($0.streamName.rawValue, $0.type) } }
                }
            }
            do {
                // Two probes, each appended once the one before was delivered: the second can only
                // have been read after a wake-up through LISTEN, so the subscription now waits on it.
                try await probe(store, delivered)
                try await probe(store, delivered)
                try await Task.sleep(for: .milliseconds(300))
                let stream = JourneyRepository.stream(id).rawValue
                #expect(!delivered.contains(stream: stream, type: "TokenExpired"))

                #expect(try await worker.runOnce() == 1)
                #expect(worker.statistics.outcomes == ["expired": 1])
                let deadline = ContinuousClock.now + .seconds(2)
                while !delivered.contains(stream: stream, type: "TokenExpired"), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(delivered.contains(stream: stream, type: "TokenExpired"))
            } catch {
                follower.cancel()
                _ = await follower.result
                throw error
            }
            follower.cancel()
            _ = await follower.result
        }
    }

    /// Appends an event outside any journey and waits until the subscription delivered it.
    private func probe(_ store: EventStore, _ delivered: Delivered) async throws {
        let stream = StreamName("probe-\(UUID().uuidString.lowercased())")
        try await store.append([NewEvent(type: "FollowerProbed", data: JSONB(text: "{}"))], to: stream, expectedVersion: .any)
        let deadline = ContinuousClock.now + .seconds(5)
        while !delivered.contains(stream: stream.rawValue) {
            guard ContinuousClock.now < deadline else {
                Issue.record("the subscription did not deliver the probe")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
