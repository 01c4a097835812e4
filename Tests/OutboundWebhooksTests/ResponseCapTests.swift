import Foundation
import OutboundWebhooks
import Testing

/// A receiver's answer body is never kept: a tenant's receiver cannot stream a large body into
/// `work`'s memory, and the delivery is recorded with its status.
@Suite(.serialized) struct ResponseCapTests {
    /// Points the fixture's endpoint at a receiver that streams an answer of 1 GiB announced (256
    /// MiB sent at most) with `status`, dispatches once, and returns how much the process's peak
    /// resident memory grew meanwhile.
    func dispatchToStreamingReceiver(_ f: Fixture, status: Int) async throws -> Int {
        let receiver = try StreamingReceiver(status: status)
        try await f.db.app.query("UPDATE webhook_endpoints SET url = \(receiver.url) WHERE id = \(f.endpointID)")
        try await f.enqueue("msg_1")
        let peakBefore = try Self.peakResidentBytes()
        #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
        #expect(try await receiver.waitUntilFinished(), "the receiver was still streaming")
        let grown = try Self.peakResidentBytes() - peakBefore
        return grown
    }

    /// The process's peak resident set (`VmHWM`), in bytes.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    @Test func aStreamedSuccessIsCutAtTheCapAndRecordedAsDelivered() async throws {
        try await Fixture.with { f in
            let grown = try await dispatchToStreamingReceiver(f, status: 200)
            // Read whole, 256 MiB would have been held at once.
            #expect(grown < 96 << 20, "peak memory grew by \(grown) bytes")
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == f.clock.now())
            #expect(state.lastStatus == 200)
        }
    }

    @Test func aStreamedFailureIsCutAndRetriedWithItsStatus() async throws {
        try await Fixture.with { f in
            let grown = try await dispatchToStreamingReceiver(f, status: 503)
            #expect(grown < 96 << 20, "peak memory grew by \(grown) bytes")
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == nil)
            #expect(state.lastStatus == 503)
            #expect(state.lastError == "HTTP 503")
            #expect(state.nextAttemptAt != nil)
        }
    }
}
