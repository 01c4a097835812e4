import Foundation
import HTTPServer
@testable import OutboundWebhooks
import Postgres
import Testing

/// The delivery history of a key and resending one delivery.
@Suite(.serialized) struct DeliveryLogTests {
    func log(_ f: Fixture) -> WebhookDeliveryLog {
        let clock = f.clock
        return WebhookDeliveryLog(client: f.db.app, now: { clock.now() })
    }

    @Test func recentDeliveriesShowWhereEachStands() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_a")
            f.clock.advance(by: 1)
            try await f.enqueue("msg_b")
            f.clock.advance(by: 1)
            try await f.enqueue("msg_c")
            f.receiver.script([HTTPResponse(status: .internalServerError)])
            #expect(
                try await f.dispatcher(configuration: .init(batchSize: 1, requestTimeout: 5, leaseDuration: 30))
                    .dispatchDue(limit: 1) == 1)  // msg_a: 500
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 2)  // msg_b, msg_c: 204

            let (keyID, all) = try await log(f).recent(key: "abcdefgh")
            #expect(keyID == f.apiKeyID)
            #expect(all.map(\.messageID) == ["msg_c", "msg_b", "msg_a"], "newest first")
            let failed = try #require(all.last)
            #expect(failed.status == .pending && failed.attempts == 1 && failed.lastStatus == 500)
            #expect(failed.lastError == "HTTP 500" && failed.nextAttemptAt != nil && failed.deliveredAt == nil)
            let delivered = all[0]
            #expect(
                delivered.status == .delivered && delivered.lastStatus == 204 && delivered.deliveredAt != nil
                    && delivered.nextAttemptAt == nil && delivered.resendOf == nil)
            #expect(try await log(f).recent(key: f.apiKeyID.uuidString, limit: 1).deliveries.map(\.messageID) == ["msg_c"])
            await #expect(throws: WebhookError.self) { _ = try await log(f).recent(key: "abcdefgh", limit: 0) }
        }
    }

    @Test func aResendIsANewDeliveryOfTheSameMessageAndKeepsTheOriginal() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_again")
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
            let original = try #require(try await log(f).recent(key: "abcdefgh").deliveries.first)
            #expect(original.status == .delivered)

            f.clock.advance(by: 60)
            let resent = try await log(f).resend(original.id)
            #expect(resent.id != original.id && resent.resendOf == original.id)
            #expect(resent.messageID == "msg_again" && resent.eventType == original.eventType)
            #expect(resent.status == .pending && resent.attempts == 0 && resent.nextAttemptAt == f.clock.now())

            // Only one pending delivery of a message at a time, whichever one is named.
            for id in [original.id, resent.id] {
                await #expect {
                    _ = try await log(f).resend(id)
                } throws: { error in
                    (error as? WebhookError)?.code == .deliveryPending
                }
            }
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
            #expect(f.receiver.received.count == 2)
            let (first, second) = (f.receiver.received[0], f.receiver.received[1])
            #expect(second.verified && second.messageID == first.messageID, "same webhook-id: receivers can deduplicate")

            let history = try await log(f).recent(key: "abcdefgh").deliveries
            #expect(history.count == 2 && history.allSatisfy { $0.status == .delivered })
            let kept = try #require(history.first { $0.id == original.id })
            #expect(kept.attempts == 1 && kept.deliveredAt == original.deliveredAt, "the original's history is untouched")

            // The follower's guard still holds: queueing the message again is a no-op.
            try await f.enqueue("msg_again")
            #expect(try await log(f).recent(key: "abcdefgh").deliveries.count == 2)
            await #expect {
                _ = try await log(f).resend(UUID())
            } throws: { error in
                (error as? WebhookError)?.code == .deliveryNotFound
            }
        }
    }
}
