import Foundation
import HTTPServer
import OutboundWebhooks
import Postgres
import Synchronization
import Testing

@Suite(.serialized) struct DeliveryTests {
    @Test func enqueueIsIdempotentAndCommitsWithTheCallersTransaction() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            try await f.enqueue("msg_1")
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                _ = try await f.db.app.transaction { connection in
                    try WebhookOutbox.enqueue(
                        endpointID: f.endpointID, messageID: "msg_rolled_back", type: "journey.abandoned",
                        payload: JSONB(text: "{}"), on: connection)
                    throw Abort()
                }
            }
            let count = try await f.db.app.query("SELECT count(*) FROM webhook_deliveries").first?.decode(0, as: Int.self)
            #expect(count == 1)
            let inserted = try await f.db.app.transaction { connection in
                try WebhookOutbox.enqueue(
                    endpointID: f.endpointID, messageID: "msg_1", type: "journey.completed",
                    payload: JSONB(text: "{}"), on: connection)
            }
            #expect(!inserted)
        }
    }

    @Test func theAppRoleCannotDeleteDeliveries() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let error = await #expect(throws: PostgresError.self) {
                try await f.db.app.query("DELETE FROM webhook_deliveries")
            }
            #expect(error?.code == .insufficientPrivilege)
        }
    }

    @Test func deliversOnceWithAVerifiedSignature() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let dispatcher = f.dispatcher()
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)
            let received = f.receiver.received
            #expect(received.count == 1)
            #expect(received.first?.verified == true)
            #expect(received.first?.messageID == "msg_1")
            #expect(received.first?.userAgent == WebhookDispatcher.userAgent)
            #expect(received.first?.contentType == "application/json")
            let body = try JSONSerialization.jsonObject(with: try #require(received.first?.body)) as? [String: Any]
            #expect(body?["type"] as? String == "journey.completed")
            #expect((body?["data"] as? [String: Any])?["journeyID"] as? String == "j-1")
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == f.clock.now())
            #expect(state.nextAttemptAt == nil)
            #expect(state.attempts == 1)
            #expect(state.lastStatus == 204)
        }
    }

    @Test func retriesWithGrowingJitteredDelaysThroughAnOutageThenDelivers() async throws {
        try await Fixture.with { f in
            // Attempt 1: the receiver is down (nothing listens on the endpoint's port).
            let down = Receiver(secret: f.secret, clock: f.clock)
            let downURL = try down.start()
            await down.stop()
            let liveURL = try await f.db.app.query("SELECT url FROM webhook_endpoints WHERE id = \(f.endpointID)").first!.decode(
                0, as: String.self)
            try await f.db.app.query("UPDATE webhook_endpoints SET url = \(downURL) WHERE id = \(f.endpointID)")
            try await f.enqueue("msg_1")
            let randoms = Mutex([0.5, 0.9, 0.25, 0.5])
            let dispatcher = f.dispatcher(random: { randoms.withLock { $0.removeFirst() } })

            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            var state = try await f.delivery("msg_1")
            #expect(state.attempts == 1 && state.lastStatus == nil && state.deliveredAt == nil)
            #expect(state.lastError?.hasPrefix("transport error") == true)
            let first = try #require(state.nextAttemptAt).timeIntervalSince(f.clock.now())
            #expect(first == 2.5)  // 0.5 × 5 s

            // Back up, but failing with 500 twice.
            try await f.db.app.query("UPDATE webhook_endpoints SET url = \(liveURL) WHERE id = \(f.endpointID)")
            f.receiver.script([.text("boom", status: 500), .text("boom", status: 500)])
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)  // not due yet
            var delays: [TimeInterval] = [first]
            for _ in 0..<2 {
                f.clock.set(try #require(state.nextAttemptAt))
                #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
                state = try await f.delivery("msg_1")
                #expect(state.lastStatus == 500)
                delays.append(try #require(state.nextAttemptAt).timeIntervalSince(f.clock.now()))
            }
            #expect(abs(delays[1] - 0.9 * 300) < 0.001)
            #expect(abs(delays[2] - 0.25 * 1800) < 0.001)
            #expect(delays[0] < delays[1] && delays[1] < delays[2])
            for (attempt, delay) in delays.enumerated() {
                #expect(delay >= 1 && delay <= WebhookRetrySchedule().interval(afterAttempt: attempt + 1))
            }

            // Recovered.
            f.clock.set(try #require(state.nextAttemptAt))
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            state = try await f.delivery("msg_1")
            #expect(state.deliveredAt != nil && state.attempts == 4 && state.lastStatus == 204)
            #expect(f.receiver.received.count == 3)
            #expect(f.receiver.received.allSatisfy { $0.verified })
            #expect(Set(f.receiver.received.map(\.body)).count == 1)  // same bytes every attempt
        }
    }

    @Test func honoursRetryAfter() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            f.receiver.script([HTTPResponse(status: 503, headers: ["Retry-After": "120"])])
            let dispatcher = f.dispatcher(random: { 0.5 })
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_1")
            #expect(state.lastStatus == 503)
            #expect(try #require(state.nextAttemptAt).timeIntervalSince(f.clock.now()) == 120)
            f.clock.advance(by: 119)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)
            f.clock.advance(by: 1)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            #expect(try await f.delivery("msg_1").deliveredAt != nil)
        }
    }

    @Test func goneDisablesTheEndpointAndStopsItsDeliveries() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            f.receiver.script([.text("gone", status: 410)])
            let dispatcher = f.dispatcher()
            #expect(try await dispatcher.dispatchDue(limit: 1) == 1)
            let disabled = try await f.db.app.withConnection { [id = f.endpointID] in
                try WebhookEndpoints.disabled(id, on: $0)?.reason
            }
            #expect(disabled == "410 Gone")
            let state = try await f.delivery("msg_1")
            #expect(state.givenUpAt != nil && state.nextAttemptAt == nil && state.lastStatus == 410)

            try await f.enqueue("msg_2")
            f.clock.advance(by: 3600)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)
            #expect(f.receiver.received.count == 1)
            #expect(try await f.delivery("msg_2").attempts == 0)
        }
    }

    @Test func twoDispatchersNeverDeliverOneMessageTwice() async throws {
        try await Fixture.with { f in
            let ids = (0..<40).map { "msg_\($0)" }
            for id in ids { try await f.enqueue(id) }
            let a = f.dispatcher(owner: "a", configuration: .init(batchSize: 3, requestTimeout: 5, leaseDuration: 30))
            let b = f.dispatcher(owner: "b", configuration: .init(batchSize: 3, requestTimeout: 5, leaseDuration: 30))
            let total = try await withThrowingTaskGroup(of: Int.self) { group in
                for dispatcher in [a, b] {
                    group.addTask {
                        var sent = 0
                        while true {
                            let n = try await dispatcher.dispatchDue(limit: 3)
                            if n == 0 { return sent }
                            sent += n
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(total == ids.count)
            let received = f.receiver.received.map(\.messageID)
            #expect(received.count == ids.count)
            #expect(Set(received) == Set(ids))
            let delivered = try await f.db.app.query(
                """
                SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NOT NULL AND attempt_count = 1
                """
            ).first?.decode(0, as: Int.self)
            #expect(delivered == ids.count)
        }
    }

    @Test func givesUpAfterTheLastAttemptWithTheReason() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let schedule = WebhookRetrySchedule()
            f.receiver.script(Array(repeating: .text("boom", status: 500), count: schedule.maxAttempts + 1))
            let dispatcher = f.dispatcher(random: { 0.999_999 })
            let start = f.clock.now()
            for attempt in 1...schedule.maxAttempts {
                #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
                let state = try await f.delivery("msg_1")
                #expect(state.attempts == attempt)
                if attempt < schedule.maxAttempts {
                    f.clock.set(try #require(state.nextAttemptAt))
                }
            }
            let state = try await f.delivery("msg_1")
            #expect(state.givenUpAt != nil && state.nextAttemptAt == nil && state.deliveredAt == nil)
            #expect(state.lastError == "gave up after 11 attempts: HTTP 500")
            #expect(f.clock.now().timeIntervalSince(start) >= 72 * 3600)
            f.clock.advance(by: 7 * 86400)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)
            #expect(f.receiver.received.count == schedule.maxAttempts)
        }
    }
}
