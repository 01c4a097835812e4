import Foundation
import OutboundWebhooks
import Synchronization
import Testing

/// DNS rebinding: a name whose answer changes between the destination check and the connection
/// (allowed first, loopback next) must never reach the later answer.
@Suite(.serialized) struct RebindingTests {
    @Test func aDeliveryGoesToTheAddressThatWasCheckedNeverToALaterAnswer() async throws {
        try await Fixture.with { f in
            // The fixture's receiver listens on 127.0.0.1: only a second lookup reaches it. The
            // allowed one listens on 127.0.0.2, same port. The endpoint is named `localhost`, which
            // the system resolver answers with 127.0.0.1 (or ::1): a client that looked the name
            // up again itself would reach the refused receiver too.
            let registered = try #require(
                try await f.db.app.query(
                    "SELECT url FROM webhook_endpoints WHERE id = \(f.endpointID)"
                ).first
            ).decode(0, as: String.self)
            let port = try #require(URLComponents(string: registered)?.port)
            let allowed = Receiver(secret: f.secret, clock: f.clock)
            _ = try allowed.start(host: "127.0.0.2", port: port)
            try await f.db.app.query(
                "UPDATE webhook_endpoints SET url = \("http://localhost:\(port)/hook") WHERE id = \(f.endpointID)")
            try await f.enqueue("msg_rebound")

            let lookups = Mutex(0)
            var configuration = WebhookDispatcher.Configuration(requestTimeout: 5, leaseDuration: 30)
            configuration.resolver = HostResolver { host in
                let lookup = lookups.withLock { count -> Int in
                    count += 1
                    return count
                }
                // Allowed on the first answer, loopback (refused) on every later one.
                return [IPAddress(lookup == 1 ? "127.0.0.2" : "127.0.0.1")!]
            }
            let dispatcher = f.dispatcher(
                configuration: configuration,
                destinations: try WebhookDestinationPolicy(allowList: "127.0.0.2/32"))
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)

            let state = try await f.delivery("msg_rebound")
            await allowed.stop()
            #expect(state.deliveredAt != nil, "\(state.lastError ?? "no error")")
            #expect(allowed.received.map(\.messageID) == ["msg_rebound"])
            #expect(f.receiver.received.isEmpty, "the address of a later answer was reached")
            #expect(lookups.withLock { $0 } == 1, "the name was looked up once per attempt")
        }
    }
}
