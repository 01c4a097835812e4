import Foundation
import HTTPServer
import JourneyTesting
import Testing
import UnicoEmulator

@Suite("Webhook delivery")
struct WebhookTests {
    /// Creates a process, prepares and finishes a capture with `outcome`; returns the process id.
    static func finishAProcess(_ fixture: Fixture, outcome: String = "approved", token: String? = nil) async throws -> String {
        let access: String
        if let token { access = token } else { access = try await fixture.accessToken() }
        let process = try await fixture.createProcess(token: access)
        let prepared = try await fixture.client.json(
            "POST", "/sdk/captures", ["webAppToken": process["webAppToken"] as! String, "environment": "UAT"])
        let captureID = try #require(try prepared.json()["captureId"] as? String)
        let finished = try await fixture.client.json("POST", "/sdk/captures/\(captureID)/finish", ["outcome": outcome])
        #expect(finished.status == 200)
        return process["id"] as! String
    }

    static func webhook(_ receiver: WebhookReceiver, _ authentication: UnicoEmulator.WebhookAuthentication, attempts: Int = 4)
        -> UnicoEmulator.WebhookConfiguration
    {
        UnicoEmulator.WebhookConfiguration(
            url: receiver.url, authentication: authentication, maxAttempts: attempts,
            initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(40))
    }

    @Test(arguments: [
        (UnicoEmulator.WebhookAuthentication.basic(user: "unico", password: "s3cret"), "Authorization", "Basic dW5pY286czNjcmV0"),
        (try! UnicoEmulator.WebhookAuthentication(apiKeyHeader: "X-Api-Key:abc123"), "X-Api-Key", "abc123"),
        (try! UnicoEmulator.WebhookAuthentication(apiKeyHeader: "Authorization:Bearer xyz"), "Authorization", "Bearer xyz"),
        (try! UnicoEmulator.WebhookAuthentication(apiKeyHeader: "rawvalue"), "Authorization", "rawvalue"),
        (UnicoEmulator.WebhookAuthentication.bearer(token: "tok-1"), "Authorization", "Bearer tok-1"),
    ])
    func deliversTheFinishedProcessWithTheConfiguredAuthentication(
        _ authentication: UnicoEmulator.WebhookAuthentication, _ header: String, _ value: String
    ) async throws {
        try await withReceiver { receiver in
            try await withEmulator({ $0.webhook = Self.webhook(receiver, authentication) }) { fixture in
                let id = try await Self.finishAProcess(fixture)
                let requests = try await receiver.waitFor(1)
                try #require(requests.count == 1)
                let request = requests[0]
                #expect(request.headers[header] == value)
                #expect(request.headers["Content-Type"] == "application/json")
                #expect(
                    request.json == [
                        "processId": id, "state": "PROCESS_STATE_FINISHED", "flow": "idtoken", "result": "ok",
                    ])
                try await waitUntil("the first delivery is delivered") {
                    fixture.emulator.webhookDeliveries().first?.outcome == .delivered
                }
            }
        }
    }

    @Test func sendsNoAuthorizationWhenNoneIsConfigured() async throws {
        try await withReceiver { receiver in
            try await withEmulator({ $0.webhook = Self.webhook(receiver, .none) }) { fixture in
                _ = try await Self.finishAProcess(fixture, outcome: "rejected")
                let requests = try await receiver.waitFor(1)
                try #require(requests.count == 1)
                #expect(requests[0].headers["Authorization"] == nil)
                #expect(requests[0].json["result"] == "invalid_identity")
                #expect(requests[0].json["lastEvent"] == nil)
            }
        }
    }

    @Test func rejectsMalformedAPIKeySettings() {
        #expect(throws: EmulatorError.self) { try UnicoEmulator.WebhookAuthentication(apiKeyHeader: ":value") }
        #expect(throws: EmulatorError.self) { try UnicoEmulator.WebhookAuthentication(apiKeyHeader: "") }
        #expect(throws: EmulatorError.self) { try UnicoEmulator.WebhookAuthentication(apiKeyHeader: "Bad Header:v") }
    }

    @Test func retriesAfterServerErrorsUntilDelivered() async throws {
        try await withReceiver(answering: [500, 503]) { receiver in
            try await withEmulator({ $0.webhook = Self.webhook(receiver, .bearer(token: "t")) }) { fixture in
                let id = try await Self.finishAProcess(fixture)
                let requests = try await receiver.waitFor(3)
                #expect(requests.count == 3)
                #expect(Set(requests.map { $0.json["processId"] }) == [id])
                try await waitUntil("the first delivery is delivered") {
                    fixture.emulator.webhookDeliveries().first?.outcome == .delivered
                }
                let delivery = try #require(fixture.emulator.webhookDeliveries().first)
                #expect(delivery.attempts == [500, 503, 200])
                #expect(receiver.requests.count == 3, "no attempt after success")
            }
        }
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        try await withReceiver(answering: Array(repeating: 500, count: 10)) { receiver in
            try await withEmulator({ $0.webhook = Self.webhook(receiver, .none, attempts: 3) }) { fixture in
                _ = try await Self.finishAProcess(fixture)
                try await waitUntil("the first delivery is gaveUp") {
                    fixture.emulator.webhookDeliveries().first?.outcome == .gaveUp
                }
                #expect(fixture.emulator.webhookDeliveries().first?.attempts == [500, 500, 500])
                #expect(receiver.requests.count == 3)
            }
        }
    }

    @Test func retriesTransportErrors() async throws {
        let closed = WebhookReceiver()
        try closed.server.start()
        let url = closed.url
        await closed.server.shutdown()
        try await withEmulator({
            $0.webhook = .init(url: url, maxAttempts: 2, initialBackoff: .milliseconds(10), requestTimeout: .seconds(2))
        }) { fixture in
            _ = try await Self.finishAProcess(fixture)
            try await waitUntil("the first delivery is gaveUp") { fixture.emulator.webhookDeliveries().first?.outcome == .gaveUp }
            #expect(fixture.emulator.webhookDeliveries().first?.attempts == [nil, nil])
        }
    }

    @Test func duplicatesWhenTheFaultScriptSaysSo() async throws {
        try await withReceiver { receiver in
            try await withEmulator({
                $0.webhook = Self.webhook(receiver, .none)
                $0.faultScript.webhook.duplicateRate = 1
            }) { fixture in
                let id = try await Self.finishAProcess(fixture)
                let requests = try await receiver.waitFor(2)
                #expect(requests.count == 2)
                #expect(requests.allSatisfy { $0.json["processId"] == id && $0.json["result"] == "ok" })
                #expect(fixture.emulator.webhookDeliveries().map(\.isDuplicate) == [false, true])
            }
        }
    }

    @Test func delaysTheFirstAttemptWhenTheFaultScriptSaysSo() async throws {
        try await withReceiver { receiver in
            try await withEmulator({
                $0.webhook = Self.webhook(receiver, .none)
                $0.faultScript.webhook.delayMs = .init(400)
            }) { fixture in
                _ = try await Self.finishAProcess(fixture)
                let finishedAt = ContinuousClock.now
                #expect(receiver.requests.isEmpty, "held back")
                let requests = try await receiver.waitFor(1)
                #expect(requests.count == 1)
                #expect(ContinuousClock.now - finishedAt >= .milliseconds(380))
            }
        }
    }

    @Test func dropsWhenTheFaultScriptSaysSo() async throws {
        try await withReceiver { receiver in
            try await withEmulator({
                $0.webhook = Self.webhook(receiver, .none)
                $0.faultScript.webhook.dropRate = 1
            }) { fixture in
                _ = try await Self.finishAProcess(fixture)
                try await waitUntil("the first delivery is dropped") {
                    fixture.emulator.webhookDeliveries().first?.outcome == .dropped
                }
                #expect(receiver.requests.isEmpty)
            }
        }
    }

    @Test func reorderedNotificationsAreOvertaken() async throws {
        var script = FaultScript()
        script.webhook.reorderRate = 0.5
        script.webhook.reorderHoldMs = 1500
        // A seed whose first notification is held back and whose second is not.
        let seed = try #require(
            (UInt64(0)..<500).first { seed in
                let plan = FaultPlan(script: script, seed: seed)
                return plan.webhookFault().reordered && !plan.webhookFault().reordered
            })
        try await withReceiver { receiver in
            try await withEmulator({
                $0.webhook = Self.webhook(receiver, .none)
                $0.faultScript = script
                $0.seed = seed
            }) { fixture in
                let token = try await fixture.accessToken()
                let first = try await Self.finishAProcess(fixture, token: token)
                let second = try await Self.finishAProcess(fixture, outcome: "rejected", token: token)
                let requests = try await receiver.waitFor(2)
                #expect(requests.map { $0.json["processId"] } == [second, first])
            }
        }
    }

    @Test func expiredProcessesAnnounceLastEvent() async throws {
        try await withReceiver { receiver in
            try await withEmulator({ $0.webhook = Self.webhook(receiver, .none) }) { fixture in
                let access = try await fixture.accessToken()
                var body = Fixture.validBody
                body["expiresIn"] = "60s"
                let process = try await fixture.createProcess(token: access, body)
                _ = try await fixture.client.json(
                    "POST", "/sdk/captures", ["webAppToken": process["webAppToken"] as! String, "environment": "UAT"])
                fixture.clock.advance(by: 61)
                let requests = try await receiver.waitFor(1)
                try #require(requests.count == 1, "the background sweep expires the process without a Get")
                #expect(requests[0].json["result"] == "expired")
                #expect(requests[0].json["lastEvent"] == "EVENT_TYPE_SESSION_ENDED")
                #expect(requests[0].json["lastEventDescription"] == "Session ended by timeout or by new session created")
                #expect(fixture.emulator.process(id: process["id"] as! String)?.result == .expired)
            }
        }
    }
}
