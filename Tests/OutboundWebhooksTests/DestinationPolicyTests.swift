import Foundation
import HTTPServer
@testable import OutboundWebhooks
import Postgres
import Testing

/// SSRF: special addresses are refused after resolving, at registration for IP literals and at
/// send time, unless the allow-list names them.
@Suite(.serialized) struct DestinationPolicyTests {
    /// One address of each refused class, and some that pass.
    static let table: [(String, WebhookAddressClass?)] = [
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
        ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("192.168.1.1", .private),
        ("100.64.0.1", .private), ("fc00::1", .private), ("fd12:3456::1", .private),
        ("169.254.0.1", .linkLocal), ("fe80::1", .linkLocal),
        ("169.254.169.254", .metadata), ("fd00:ec2::254", .metadata),
        ("224.0.0.1", .reserved), ("255.255.255.255", .reserved), ("ff02::1", .reserved),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .metadata), ("64:ff9b::a00:1", .private),
        ("2002:c0a8:101::1", .private),
        ("8.8.8.8", nil), ("172.32.0.1", nil), ("100.128.0.1", nil), ("2001:4860:4860::8888", nil), ("::ffff:1.1.1.1", nil),
    ]

    @Test func everySpecialClassIsRecognised() throws {
        for (text, expected) in Self.table {
            let address = try #require(IPAddress(text), "\(text) parses")
            #expect(WebhookAddressClass.of(address) == expected, "\(text)")
        }
        #expect(IPAddress(hostLiteral: "127.1") == IPAddress("127.0.0.1"), "legacy forms are literals too")
        #expect(IPAddress(hostLiteral: "2130706433") == IPAddress("127.0.0.1"))
        #expect(IPAddress(hostLiteral: "hooks.example.com") == nil)
    }

    @Test func registrationRefusesEachClassOfLiteralUnlessAllowListed() throws {
        let policy = WebhookDestinationPolicy()
        for (text, expected) in Self.table {
            let host = text.contains(":") ? "[\(text)]" : text
            let url = "https://\(host)/hook"
            if let expected {
                #expect {
                    try policy.checkRegistration(url: url)
                } throws: { error in
                    let error = try #require(error as? WebhookError)
                    return error.code == .destinationRefused && error.message.contains(expected.phrase)
                        && error.message.contains("JOURNEYS_WEBHOOK_ALLOW_HOSTS")
                }
            } else {
                #expect(throws: Never.self) { try policy.checkRegistration(url: url) }
            }
        }
        #expect(throws: WebhookError.self) { try policy.checkRegistration(url: "https://127.1/x") }
        #expect(throws: Never.self) { try policy.checkRegistration(url: "https://localhost/x") }  // a name: checked when sending
        let allowing = try WebhookDestinationPolicy(allowList: "127.0.0.1, 10.0.0.0/8 ,fd00:ec2::254,hooks.internal")
        for allowed in ["http://127.0.0.1:8080/x", "https://10.9.9.9/x", "https://[fd00:ec2::254]/x"] {
            #expect(throws: Never.self) { try allowing.checkRegistration(url: allowed) }
        }
        #expect(throws: WebhookError.self) { try allowing.checkRegistration(url: "http://127.0.0.2/x") }
        #expect(throws: WebhookError.self) { try allowing.checkRegistration(url: "https://169.254.169.254/") }
    }

    @Test func aMalformedAllowListNamesTheVariableAndTheEntry() {
        for bad in ["10.0.0.0/33", "not a host", "::1/200", "a..b"] {
            #expect {
                _ = try WebhookDestinationPolicy(allowList: "127.0.0.1,\(bad)")
            } throws: { error in
                let error = try #require(error as? WebhookError)
                return error.code == .invalidConfiguration && error.message.contains("JOURNEYS_WEBHOOK_ALLOW_HOSTS")
                    && error.message.contains("'\(bad)'")
            }
        }
    }

    @Test func theRegistrationStoreRefusesTheMetadataAddress() async throws {
        try await Fixture.with { f in
            let store = WebhookEndpointStore(client: f.db.app, sealer: f.sealer)
            await #expect {
                _ = try await store.set(key: "abcdefgh", url: "https://169.254.169.254/latest/meta-data")
            } throws: { error in
                (error as? WebhookError)?.code == .destinationRefused
            }
        }
    }

    @Test func allowListedLoopbackIsDelivered() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_allowed")
            #expect(try await f.dispatcher(destinations: .loopback).dispatchDue(limit: 10) == 1)
            #expect(try await f.delivery("msg_allowed").deliveredAt != nil)
            #expect(f.receiver.received.count == 1)
        }
    }

    @Test func loopbackIsRefusedAtSendTimeWithoutTheAllowListAndRecordedWithAReason() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_refused")
            #expect(try await f.dispatcher(destinations: WebhookDestinationPolicy()).dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_refused")
            #expect(state.deliveredAt == nil && state.nextAttemptAt != nil && state.attempts == 1, "retried later")
            #expect(state.lastStatus == nil)
            let reason = try #require(state.lastError)
            #expect(reason.hasPrefix("refused: host 127.0.0.1 is a loopback address"), "\(reason)")
            #expect(f.receiver.received.isEmpty, "no request was made")
        }
    }

    @Test func aHostNameResolvingToLoopbackIsRefusedAtSendTime() async throws {
        try await Fixture.with { f in
            // Registered by name, so registration cannot tell; the check after resolving refuses it.
            let row = try #require(try await f.db.app.query("SELECT url FROM webhook_endpoints WHERE id = \(f.endpointID)").first)
            let registered = try row.decode(0, as: String.self)
            let port = try #require(URLComponents(string: registered)?.port)
            try await f.db.app.query(
                "UPDATE webhook_endpoints SET url = \("http://localhost:\(port)/hook") WHERE id = \(f.endpointID)")
            try await f.enqueue("msg_by_name")
            let refusing = try WebhookDestinationPolicy(allowList: "10.0.0.0/8")
            #expect(try await f.dispatcher(destinations: refusing).dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_by_name")
            let reason = try #require(state.lastError)
            #expect(reason.hasPrefix("refused: host localhost resolves to "), "\(reason)")
            #expect(reason.contains("a loopback address"), "\(reason)")
            #expect(f.receiver.received.isEmpty)

            // Naming the host in the allow-list lets it through.
            f.clock.advance(by: 3600)
            let byName = try WebhookDestinationPolicy(allowList: "localhost")
            #expect(try await f.dispatcher(destinations: byName).dispatchDue(limit: 10) == 1)
            #expect(try await f.delivery("msg_by_name").deliveredAt != nil)
        }
    }
}
