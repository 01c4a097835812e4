import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
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
            let delivered = Delivered()
            let subscription = LogFollower(
                client: h.database.app, checkpoint: .after(.start),
                configuration: .init(pollInterval: .seconds(60))
            ) { batch, _ in
                delivered.events.withLock { $0 += batch.map { ($0.streamName.rawValue, $0.type) } }
            }
            let follower = Task { try await subscription.run() }
            do {
                // Two probes, each appended once the one before was delivered: the second can only
                // have been read after a wake-up through LISTEN, so the subscription now waits on it.
                try await probe(store, delivered)
                try await probe(store, delivered)
                let stream = StreamName.journey(id.rawValue).rawValue
                #expect(!delivered.contains(stream: stream, type: "TokenExpired"))

                #expect(try await worker.runOnce() == 1)
                #expect(worker.statistics.outcomes == ["expired": 1])
                // Well before the subscription's one-minute poll: the worker's commit woke it.
                try await waitUntil("the subscription delivers TokenExpired", limit: .seconds(30)) {
                    delivered.contains(stream: stream, type: "TokenExpired")
                }
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
        try await waitUntil("the subscription delivers the probe", limit: .seconds(30)) {
            delivered.contains(stream: stream.rawValue)
        }
    }
}
