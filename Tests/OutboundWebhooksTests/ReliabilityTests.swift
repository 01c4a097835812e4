import Foundation
import HTTPServer
import JourneyTesting
@testable import OutboundWebhooks
import Postgres
import Testing

@Suite(.serialized) struct ReliabilityTests {
    @Test func aDispatcherThatDiesMidCallLeavesALeaseThatExpires() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            let crashed = f.dispatcher(owner: "crashed")
            let survivor = f.dispatcher(owner: "survivor")
            // "crashed" claims and never records an outcome.
            #expect(try await crashed.claim(limit: 10).count == 1)
            #expect(try await survivor.dispatchDue(limit: 10) == 0)  // leased
            f.clock.advance(by: 30)  // lease over
            #expect(try await survivor.dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt != nil && state.attempts == 2)
            // A late outcome from the crashed dispatcher changes nothing.
            let stale = WebhookDelivery(
                id: try await f.db.app.query("SELECT id FROM webhook_deliveries").first!.decode(0),
                endpointID: f.endpointID, messageID: "msg_1", eventType: "journey.completed",
                payload: "{}", attempt: 1, createdAt: f.clock.now(), url: "",
                sealedSecret: Data(), secretKeyID: "test-kek-1")
            try await crashed.record(.failed(status: 500, error: "HTTP 500", retryAfter: nil), for: stale)
            let after = try await f.delivery("msg_1")
            #expect(after.deliveredAt == state.deliveredAt && after.lastStatus == 204 && after.nextAttemptAt == nil)
            #expect(f.receiver.received.count == 1)
        }
    }

    @Test func aSlowEndpointTimesOutAndIsRetried() async throws {
        try await Fixture.with { f in
            // Reads the request and never answers: the attempt ends at its deadline.
            let silent = try StreamingReceiver(status: 200, .silent)
            try await f.db.app.query("UPDATE webhook_endpoints SET url = \(silent.url) WHERE id = \(f.endpointID)")
            try await f.enqueue("msg_1")
            let dispatcher = f.dispatcher(configuration: .init(requestTimeout: 0.3, leaseDuration: 30))
            #expect(try await dispatcher.dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == nil && state.nextAttemptAt != nil && state.lastStatus == nil)
            #expect(
                state.lastError == "transport error: no complete answer from 127.0.0.1 (127.0.0.1:\(silent.port)) within 0.3 s")
            try await waitUntil("the receiver saw the connection closed") { silent.finished }
        }
    }

    @Test func enqueueByAPIKeyFansOutToItsEnabledEndpoints() async throws {
        try await Fixture.with { f in
            _ = try await f.db.app.transaction { [apiKeyID = f.apiKeyID] connection in
                try WebhookEndpoints.create(
                    apiKeyID: apiKeyID, url: "http://127.0.0.1:1/other",
                    secret: WebhookSecret.generate(), sealer: f.sealer, destinations: .loopback,
                    on: connection)
            }
            let enqueue: @Sendable () async throws -> Int = { [f] in
                try await f.db.app.transaction { connection in
                    try WebhookOutbox.enqueue(
                        apiKeyID: f.apiKeyID, messageID: "msg_1", type: "journey.abandoned",
                        payload: JSONB(text: #"{"reason": "attempts exhausted"}"#),
                        now: f.clock.now(), on: connection)
                }
            }
            #expect(try await enqueue() == 2)
            #expect(try await enqueue() == 0)
        }
    }
}

@Suite(.serialized) struct DispatcherServiceTests {
    @Test func redirectsAreNotFollowed() async throws {
        try await Fixture.with { f in
            try await f.enqueue("msg_1")
            f.receiver.script([HTTPResponse(status: 307, headers: ["Location": "/hook"])])
            #expect(try await f.dispatcher().dispatchDue(limit: 10) == 1)
            let state = try await f.delivery("msg_1")
            #expect(state.deliveredAt == nil && state.lastStatus == 307)
            #expect(f.receiver.received.count == 1)
        }
    }

    @Test func runDeliversUntilCancelled() async throws {
        try await Fixture.with { f in
            let dispatcher = f.dispatcher(
                configuration: .init(requestTimeout: 5, leaseDuration: 30, pollInterval: .milliseconds(20)))
            let service = Task { try await dispatcher.run() }
            try await f.enqueue("msg_1")
            try await f.enqueue("msg_2")
            try await waitUntil("both messages arrived", limit: .seconds(5)) { f.receiver.received.count >= 2 }
            service.cancel()
            try await service.value
            #expect(Set(f.receiver.received.map(\.messageID)) == ["msg_1", "msg_2"])
            #expect(try await f.delivery("msg_2").deliveredAt != nil)
        }
    }
}

@Test func aDeliveryDescriptionLeavesOutTheSecretAndThePayload() throws {
    let secret = WebhookSecret.generate()
    let sealer = try WebhookSecretSealer(activeKeyID: "k1", keys: ["k1": Data(repeating: 7, count: 32)])
    let endpointID = UUID()
    let delivery = WebhookDelivery(
        id: UUID(), endpointID: endpointID, messageID: "msg_1", eventType: "journey.completed",
        payload: #"{"humanToken": "ht-secret-value"}"#, attempt: 1, createdAt: Date(),
        url: "http://127.0.0.1:1/hook",
        sealedSecret: try sealer.seal(secret, endpointID: endpointID).sealed, secretKeyID: "k1")
    let text = "\(delivery) \(String(reflecting: secret)) \(sealer)"
    #expect(!text.contains(secret.text) && !text.contains(secret.key.base64EncodedString()))
    #expect(!text.contains("ht-secret-value"))
}
