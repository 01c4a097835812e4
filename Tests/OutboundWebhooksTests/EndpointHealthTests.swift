import AccessControl
import Foundation
import HTTPServer
import JourneyTesting
@testable import OutboundWebhooks
import Postgres
import Testing

/// Issue 26 item 5 and issue 23: an endpoint failing for longer than the auto-disable setting is
/// disabled with a reason and counted; a revoked key's endpoints get nothing queued or sent;
/// each tenant's allow-list opens destinations to its own keys' endpoints only. Injected clock.
@Suite(.serialized) struct EndpointHealthTests {
    static let day: TimeInterval = 86400

    /// Retries far beyond the test's span, so only each step's new message is due.
    func configuration(autoDisableAfter: TimeInterval? = 3 * day) -> WebhookDispatcher.Configuration {
        WebhookDispatcher.Configuration(
            requestTimeout: 5, leaseDuration: 30,
            retrySchedule: WebhookRetrySchedule(intervals: [60 * Self.day]),
            autoDisableAfter: autoDisableAfter)
    }

    func endpoint(_ f: Fixture) async throws -> WebhookEndpoint {
        try await WebhookAdmin(client: f.db.app, sealer: f.sealer).endpoint(f.endpointID, tenant: "default")
    }

    /// Advances the clock, queues one message, answers it with `status`, dispatches it.
    func step(_ f: Fixture, _ dispatcher: WebhookDispatcher, after: TimeInterval, _ message: String, status: HTTPStatus)
        async throws
    {
        f.clock.advance(by: after)
        try await f.enqueue(message)
        f.receiver.script([.text("answer", status: status)])
        #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
    }

    @Test func anEndpointFailingLongerThanTheSettingIsDisabledWithTheReasonAndCounted() async throws {
        try await Fixture.with { f in
            let dispatcher = f.dispatcher(configuration: configuration())
            let start = f.clock.now()
            try await step(f, dispatcher, after: 0, "msg_1", status: .internalServerError)
            #expect(try await endpoint(f).failingSince == start)
            try await step(f, dispatcher, after: Self.day, "msg_2", status: .ok)
            #expect(try await endpoint(f).failingSince == nil, "a 2xx ends the run of failures")
            try await step(f, dispatcher, after: Self.day, "msg_3", status: .serviceUnavailable)
            let since = f.clock.now()
            try await step(f, dispatcher, after: 2 * Self.day, "msg_4", status: .internalServerError)
            var current = try await endpoint(f)
            #expect(current.isEnabled && current.failingSince == since, "2 days of failures: still enabled")
            try await step(f, dispatcher, after: Self.day + 1, "msg_5", status: .internalServerError)
            current = try await endpoint(f)
            #expect(!current.isEnabled)
            #expect(
                current.disabledReason?.hasPrefix("disabled automatically: failing since ") == true,
                "\(current.disabledReason ?? "")")
            #expect(current.disabledReason?.hasSuffix("no 2xx for longer than 3 days") == true)
            #expect(try await WebhookBacklog.read(client: f.db.app).autoDisabled == 1)

            // Disabled: nothing more is sent; enabling forgets the failures and sends what waited.
            try await f.enqueue("msg_6")
            f.clock.advance(by: 60)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 0)
            let enabled = try await WebhookAdmin(client: f.db.app, sealer: f.sealer).enable(f.endpointID, tenant: "default")
            #expect(enabled.isEnabled && enabled.failingSince == nil)
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            #expect(f.receiver.received.last?.messageID == "msg_6")
            #expect(try await WebhookBacklog.read(client: f.db.app).autoDisabled == 1, "a counter: enabling keeps it")
        }
    }

    @Test func noAutoDisableWhenTheSettingIsOffAndTheSettingParses() async throws {
        #expect(try WebhookDispatcher.Configuration.autoDisableAfter(nil) == 3 * Self.day)
        #expect(try WebhookDispatcher.Configuration.autoDisableAfter("0") == nil)
        #expect(try WebhookDispatcher.Configuration.autoDisableAfter("3600") == 3600)
        #expect(throws: WebhookError.self) { try WebhookDispatcher.Configuration.autoDisableAfter("3d") }
        #expect(WebhookDispatcher.describe(7200) == "2 hours" && WebhookDispatcher.describe(86400) == "1 day")
        try await Fixture.with { f in
            let dispatcher = f.dispatcher(configuration: configuration(autoDisableAfter: nil))
            try await step(f, dispatcher, after: 0, "msg_1", status: .internalServerError)
            try await step(f, dispatcher, after: 10 * Self.day, "msg_2", status: .internalServerError)
            #expect(try await endpoint(f).isEnabled)
        }
    }

    @Test func aRevokedKeysEndpointsGetNothingQueuedOrSent() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let payload = JSONB(text: #"{"journeyId": "j-1"}"#)
            let now = f.clock.now()
            // The follower runs as the projector role.
            let queued = try await f.db.projector.transaction { [key = f.apiKeyID] connection in
                try WebhookOutbox.enqueue(
                    apiKeyID: key, messageID: "msg_2", type: "journey.completed", payload: payload,
                    now: now, on: connection)
            }
            #expect(queued == 1)
            _ = try await APIKeyStore(client: f.db.app).revoke(f.apiKeyID.uuidString)

            let (later, subscriptions) = try await f.db.projector.transaction { [key = f.apiKeyID] connection in
                (
                    try WebhookOutbox.enqueue(
                        apiKeyID: key, messageID: "msg_3", type: "journey.completed", payload: payload,
                        now: now, on: connection),
                    try WebhookOutbox.subscriptions(apiKeyIDs: [key], on: connection)
                )
            }
            #expect(later == 0 && subscriptions.isEmpty, "nothing queued for a revoked key")
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 0, "queued messages wait, unsent")
            #expect(f.receiver.received.isEmpty)
            let endpoint = try await endpoint(f)
            #expect(endpoint.keyRevoked)
            await #expect(
                throws: WebhookError(
                    .keyRevoked, "the endpoint's API key (abcdefgh) is revoked; register the endpoint under an active key")
            ) {
                try await WebhookAdmin(client: f.db.app, sealer: f.sealer).enable(f.endpointID, tenant: "default")
            }
        }
    }

    @Test func aTenantsAllowListOpensLoopbackToItsOwnKeysOnly() async throws {
        let both = try WebhookDestinationPolicy(allowList: "hooks.shared")
            .withTenants("acme=127.0.0.0/8, hooks.acme.internal; globex=10.9.0.0/16")
        #expect(both.forTenant("acme").allowedNetworks == [IPNetwork("127.0.0.0/8")!])
        #expect(both.forTenant("acme").allowedHosts == ["hooks.shared", "hooks.acme.internal"])
        #expect(both.forTenant("default").allowedNetworks.isEmpty && both.forTenant(nil).allowedHosts == ["hooks.shared"])
        #expect(throws: WebhookError.self) { try WebhookDestinationPolicy().withTenants("acme") }
        #expect(throws: WebhookError.self) { try WebhookDestinationPolicy().withTenants("acme=not a host") }

        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let other = try WebhookDestinationPolicy().withTenants("acme=127.0.0.0/8")
            #expect(try await f.dispatcher(destinations: other).dispatchDue(limit: 1) == 1)
            let refused = try await f.delivery("msg_1")
            #expect(refused.lastError?.hasPrefix("refused: ") == true && f.receiver.received.isEmpty)

            f.clock.advance(by: 3600)
            let own = try WebhookDestinationPolicy().withTenants("default=127.0.0.0/8")
            #expect(try await f.dispatcher(destinations: own).dispatchDue(limit: 1) == 1)
            #expect(try await f.delivery("msg_1").deliveredAt != nil)
        }
    }

    @Test func theSpecialPurposeBlocksAreRefused() throws {
        let special = [
            "192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "198.19.255.254",
            "192.88.99.1", "2001:db8::1", "2001::1", "3fff::1", "100::1", "64:ff9b:1::1",
            "::ffff:192.0.2.1", "64:ff9b::c000:201",
        ]
        for text in special {
            let address = try #require(IPAddress(text), "\(text) parses")
            #expect(WebhookAddressClass.of(address) == .special, "\(text)")
            #expect(WebhookDestinationPolicy().refusal(address, host: text)?.contains("special-purpose") == true)
        }
        for text in ["198.20.0.1", "203.0.114.1", "2001:4860:4860::8888", "2606:4700::1111", "1.1.1.1"] {
            #expect(WebhookAddressClass.of(try #require(IPAddress(text))) == nil, "\(text) is public")
        }
        #expect(throws: WebhookError.self) { try WebhookDestinationPolicy().checkRegistration(url: "https://198.51.100.7/hook") }
    }
}
