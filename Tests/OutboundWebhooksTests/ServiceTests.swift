import Foundation
import HTTPServer
import JourneyTesting
import OutboundWebhooks
import Postgres
import Testing

@Suite(.serialized) struct ServiceTests {
    func service(_ f: Fixture) -> OutboundWebhookService {
        let clock = f.clock
        return OutboundWebhookService(
            owner: f.db.projector, app: f.db.app, sealer: f.sealer,
            configuration: .init(
                follower: .init(batchSize: 100, pollInterval: .milliseconds(20)),
                dispatcher: .init(
                    requestTimeout: 5, leaseDuration: 30, pollInterval: .milliseconds(20),
                    destinations: .loopback)),
            now: { clock.now() }, random: { 0.5 })
    }

    /// Polls `condition` every 20 ms for up to 10 s (the service runs on its own).
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        try await waitUntil(what, limit: .seconds(10), condition)
    }

    @Test func aReceiverThatIsDownThenUpGetsTheMessage() async throws {
        try await Fixture.with { f in
            let url = try await f.db.app.query("SELECT url FROM webhook_endpoints WHERE id = \(f.endpointID)").first!.decode(
                0, as: String.self)
            let port = try #require(URLComponents(string: url)?.port)
            await f.receiver.stop()
            let running = Task { try await service(f).run() }
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()

            var pending: Fixture.DeliveryState?
            try await eventually("the first attempt failed") {
                let rows = try await f.db.app.query(
                    "SELECT message_id FROM webhook_deliveries WHERE attempt_count >= 1 AND last_error IS NOT NULL")
                guard let id = try rows.first?.decode(0, as: String.self) else { return false }
                pending = try await f.delivery(id)
                return true
            }
            let failed = try #require(pending)
            #expect(
                failed.deliveredAt == nil && failed.lastError?.hasPrefix("transport error") == true,
                "\(failed.lastError ?? "nil")")

            _ = try f.receiver.start(port: port)
            f.clock.set(try #require(failed.nextAttemptAt))
            try await eventually("the message was delivered") { !f.receiver.received.isEmpty }
            try await eventually("the delivery was recorded") {
                try await f.db.app.query("SELECT 1 FROM webhook_deliveries WHERE delivered_at IS NOT NULL").count == 1
            }
            running.cancel()
            try await running.value
            #expect(f.receiver.received.count == 1 && f.receiver.received[0].verified)
            #expect(try await f.db.app.query("SELECT count(*) FROM webhook_deliveries").first!.decode(0, as: Int.self) == 1)
        }
    }

    @Test func goneDisablesTheEndpointAndLaterEndingsAreNotQueued() async throws {
        try await Fixture.with { f in
            f.receiver.script([.text("gone", status: 410)])
            let running = Task { try await service(f).run() }
            let journeys = Journeys(f.db, clock: f.clock)
            try await journeys.complete()
            try await eventually("the endpoint was disabled") {
                try await f.db.app.withConnection { [id = f.endpointID] in try WebhookEndpoints.disabled(id, on: $0) } != nil
            }
            try await journeys.abandon()
            try await journeys.waitUntilReadable()
            let last = try await f.db.app.query(
                """
                SELECT transaction_id::text, position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1
                """
            ).first!
            try await eventually("the follower passed the second ending") {
                let checkpoint = try await JourneyWebhookFollower.checkpoint(client: f.db.app)
                return checkpoint.position == (try last.decode(1, as: Int64.self))
            }
            running.cancel()
            try await running.value
            #expect(f.receiver.received.count == 1)
            let reason = try await f.db.app.withConnection { [id = f.endpointID] in
                try WebhookEndpoints.disabled(id, on: $0)?.reason
            }
            #expect(reason == "410 Gone")
            #expect(try await f.db.app.query("SELECT count(*) FROM webhook_deliveries").first!.decode(0, as: Int.self) == 1)
        }
    }
}
