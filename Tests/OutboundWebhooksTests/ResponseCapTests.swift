import Foundation
import JourneyTesting
import OutboundWebhooks
import Testing

/// A receiver's answer body is read up to the cap (64 KiB) at most, then the connection is closed:
/// a tenant's receiver cannot stream a large body into `work`, and the delivery is recorded with
/// its status. What the receiver manages to send is bounded by the cap plus the sockets' buffers
/// (FoundationNetworking used to drain all 256 MiB after "cancelling").
@Suite(.serialized) struct ResponseCapTests {
    /// Most a receiver may send: the cap plus the kernel's buffers on both sides, with room to spare.
    static let margin = 8 << 20

    /// Points the fixture's endpoint at a receiver that streams up to 256 MiB with `status`,
    /// dispatches once, and returns the receiver once it stopped sending.
    func dispatchToStreamingReceiver(_ f: Fixture, status: Int, _ framing: StreamingReceiver.Framing) async throws
        -> StreamingReceiver
    {
        let receiver = try StreamingReceiver(status: status, framing)
        try await f.db.app.query("UPDATE webhook_endpoints SET url = \(receiver.url) WHERE id = \(f.endpointID)")
        try await f.enqueue("msg_1")
        #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
        try await waitUntil("the receiver stopped streaming") { receiver.finished }
        return receiver
    }

    @Test(arguments: [StreamingReceiver.Framing.chunked, .untilClose])
    func aStreamedSuccessIsCutAtTheCapAndRecordedAsDelivered(framing: StreamingReceiver.Framing) async throws {
        try await Fixture.with { f in
            let receiver = try await dispatchToStreamingReceiver(f, status: 200, framing)
            #expect(receiver.sent < Self.margin, "the receiver sent \(receiver.sent) bytes")
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == f.clock.now())
            #expect(state.lastStatus == 200)
        }
    }

    @Test func anAnnouncedFailureIsNotReadAndIsRetriedWithItsStatus() async throws {
        try await Fixture.with { f in
            // 1 GiB announced: none of it is read.
            let receiver = try await dispatchToStreamingReceiver(f, status: 503, .announced(1 << 30))
            #expect(receiver.sent < Self.margin, "the receiver sent \(receiver.sent) bytes")
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == nil)
            #expect(state.lastStatus == 503)
            #expect(state.lastError == "HTTP 503")
            #expect(state.nextAttemptAt != nil)
        }
    }
}
