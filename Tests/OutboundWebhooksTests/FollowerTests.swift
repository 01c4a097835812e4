import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
@testable import OutboundWebhooks
import Postgres
import Testing
import Timestamps

@Suite(.serialized) struct FollowerTests {
    func follower(_ f: Fixture, batchSize: Int = 50) -> JourneyWebhookFollower {
        let clock = f.clock
        return JourneyWebhookFollower(client: f.db.projector, configuration: .init(batchSize: batchSize), now: { clock.now() })
    }

    func endingEventID(_ f: Fixture, _ id: JourneyID) async throws -> UUID {
        try #require(
            try await f.db.app.query(
                """
                SELECT event_id FROM events WHERE stream_name = \("journey-" + id.rawValue)
                  AND event_type IN ('JourneyCompleted', 'JourneyAbandoned')
                """
            ).first
        ).decode(0, as: UUID.self)
    }

    func deliveryCount(_ f: Fixture) async throws -> Int {
        try await f.db.app.query("SELECT count(*) FROM webhook_deliveries").first!.decode(0, as: Int.self)
    }

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aCompletedJourneyLeadsToExactlyOneSignedDelivery() async throws {
        try await Fixture.with { f in
            let journeys = Journeys(f.db, clock: f.clock)
            let id = try await journeys.complete()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 1)
            #expect(try await follower(f).catchUp() == 0)  // a re-run, or a restarted process
            #expect(try await deliveryCount(f) == 1)

            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
            let received = try #require(f.receiver.received.first)
            #expect(f.receiver.received.count == 1)
            #expect(received.verified, "signed with the endpoint's secret")
            #expect(received.messageID == "msg_" + (try await endingEventID(f, id)).uuidString.lowercased())
            let body = try json(received.body)
            #expect(body["type"] as? String == "journey.completed")
            // RFC 3339 with six fraction digits, as the log's timestamps (not Foundation's three).
            let timestamp = try #require(body["timestamp"] as? String)
            #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil)
            #expect(RFC3339.date(from: timestamp) != nil)
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["journeyId"] as? String == id.rawValue)
            #expect(data["outcome"] as? String == "approved")
            #expect(data["attempt"] as? Int == 1)
            #expect(data["environment"] as? String == "UAT")
            #expect(data["clientReference"] as? String == "order-42")
            #expect(data["occurredAt"] as? String != nil)
            #expect(Set(data.keys) == ["journeyId", "outcome", "attempt", "environment", "clientReference", "occurredAt"])
            let text = String(decoding: received.body, as: UTF8.self)
            for personal in ["sealed", "c2VhbGVk", "Maria", "12345678909", "ref-", "human-token", "proc-"] {
                #expect(!text.contains(personal), "no personal data or Human Token: \(personal)")
            }
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 0)
        }
    }

    @Test func aRunningFollowerIsWokenByNotifyNotItsPoll() async throws {
        try await Fixture.with { f in
            let clock = f.clock
            let journeys = Journeys(f.db, clock: clock)
            try await journeys.start()
            try await journeys.waitUntilReadable()
            let follower = JourneyWebhookFollower(
                client: f.db.projector, configuration: .init(pollInterval: .seconds(60)),
                now: { clock.now() })
            let running = Task { try await follower.run() }
            defer { running.cancel() }
            let last = try #require(try await EventStore(client: f.db.app).readAll(after: .start, limit: 1000).last)
            try await waitUntil("the first batch ran", limit: .seconds(5)) {
                try await JourneyWebhookFollower.checkpoint(client: f.db.app) == last.checkpoint
            }
            // Now idle until its 60 s poll: only a NOTIFY after the ending's commit can wake it.
            try await journeys.complete()
            try await journeys.waitUntilReadable()
            EventStore(client: f.db.app).notifyAppended()
            try await waitUntil("queued within 2 s of the NOTIFY, not at the 60 s poll", limit: .seconds(2)) {
                try await deliveryCount(f) > 0
            }
            #expect(try await deliveryCount(f) == 1)
            running.cancel()
            try await running.value
        }
    }

    @Test func anAbandonedJourneyLeadsToExactlyOneSignedDelivery() async throws {
        try await Fixture.with { f in
            let journeys = Journeys(f.db, clock: f.clock)
            let id = try await journeys.abandon()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 1)
            #expect(try await follower(f).catchUp() == 0)
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
            let received = try #require(f.receiver.received.first)
            #expect(f.receiver.received.count == 1 && received.verified)
            let body = try json(received.body)
            #expect(body["type"] as? String == "journey.abandoned")
            let data = try #require(body["data"] as? [String: Any])
            #expect(data["journeyId"] as? String == id.rawValue)
            #expect(data["attempt"] as? Int == 1)  // the start already requested process 1
            #expect(data["outcome"] == nil)
            let reason = try #require(data["reason"] as? [String: Any])
            #expect(reason["kind"] as? String == "requested")
            #expect(reason["detail"] as? String == "cancelled by the company")
            #expect(reason["sdkCode"] is NSNull)
        }
    }

    @Test func journeysOfOtherActorsOrOfKeysWithoutAnEndpointGetNothing() async throws {
        try await Fixture.with { f in
            try await f.db.app.query(
                """
                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                VALUES (\(UUID()), 'no hooks', 'bcdefghi', \(Data(repeating: 1, count: 32)), ARRAY['journeys:write'])
                """)
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete(actor: "operator")
            try await journeys.complete(actor: "api-key:bcdefghi")
            try await journeys.abandon(actor: "api-key:zzzzzzzz")
            try await journeys.start()  // not ended: nothing to send
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 0)
            #expect(try await deliveryCount(f) == 0)
            let last = try #require(try await EventStore(client: f.db.app).readAll(after: .start, limit: 1000).last)
            #expect(try await JourneyWebhookFollower.checkpoint(client: f.db.app) == last.checkpoint)
        }
    }

    @Test func aBatchThatFailsBeforeItsCheckpointQueuesNothingAndIsRedone() async throws {
        try await Fixture.with { f in
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await journeys.abandon()
            try await journeys.waitUntilReadable()
            struct Crash: Error {}
            let now = f.clock.now()
            await #expect(throws: Crash.self) {
                try await f.db.owner.transaction { connection in
                    let checkpoint = try #require(try JourneyWebhookFollower.lockCheckpoint(on: connection))
                    let events = try EventStore.readAll(after: checkpoint, limit: 100, on: connection)
                    #expect(try JourneyWebhookFollower.enqueue(endings: events, now: now, on: connection) == 2)
                    throw Crash()  // the process dies before the checkpoint is stored
                }
            }
            #expect(try await deliveryCount(f) == 0)
            #expect(try await JourneyWebhookFollower.checkpoint(client: f.db.app) == .start)
            #expect(try await follower(f).catchUp() == 2)
            #expect(try await follower(f).catchUp() == 0)
            #expect(try await deliveryCount(f) == 2)
        }
    }

    @Test func twoFollowersRacingQueueEachEndingOnce() async throws {
        try await Fixture.with { f in
            let journeys = Journeys(f.db, clock: f.clock)
            for i in 0..<24 {
                if i % 3 == 0 { try await journeys.abandon() } else { try await journeys.complete() }
            }
            try await journeys.waitUntilReadable()
            let followers = [follower(f, batchSize: 7), follower(f, batchSize: 7)]
            let queued = try await withThrowingTaskGroup(of: Int.self) { group in
                for follower in followers {
                    group.addTask {
                        var queued = 0
                        var idle = 0
                        while idle < 3 {
                            switch try await follower.runBatch() {
                            case .busy: idle = 0
                            case .applied(let events, let enqueued):
                                queued += enqueued
                                idle = events == 0 ? idle + 1 : 0
                            }
                        }
                        return queued
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(queued == 24)
            let distinct = try await f.db.app.query("SELECT count(DISTINCT message_id), count(*) FROM webhook_deliveries").first!
            #expect(try distinct.decode(0, as: Int.self) == 24 && distinct.decode(1, as: Int.self) == 24)
        }
    }

    @Test func aKeyWithTwoEndpointsGetsTheMessageAtEach() async throws {
        try await Fixture.with { f in
            let secondSecret = WebhookSecret.generate()
            let second = Receiver(secret: secondSecret, clock: f.clock)
            let url = try second.start()
            _ = try await f.db.app.transaction { [f] connection in
                try WebhookEndpoints.create(
                    apiKeyID: f.apiKeyID, url: url, secret: secondSecret, sealer: f.sealer,
                    eventTypes: [.journeyCompleted], destinations: .loopback, now: f.clock.now(), on: connection)
            }
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await journeys.waitUntilReadable()
            #expect(try await follower(f).catchUp() == 2)
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 2)
            await second.stop()
            #expect(f.receiver.received.count == 1 && f.receiver.received[0].verified)
            let other = try #require(second.received.first)
            #expect(second.received.count == 1)
            #expect(other.verified, "each endpoint signs with its own secret")
            #expect(other.messageID == f.receiver.received[0].messageID && other.body == f.receiver.received[0].body)
        }
    }
}
