import CLI
import Foundation
import HTTPServer
import JourneyCommands
import JourneyDomain
import JourneyTesting
import OutboundWebhooks
import Synchronization
import Testing

/// The whole path to the company: a journey completes through the API and the simulated phone,
/// `journeys work` (as composed by the app) follows the log and delivers one signed webhook to the
/// endpoint set with `journeys webhooks set` for the key that started the journey.
@Suite(.serialized) struct CompanyWebhookTests {
    final class Inbox: Sendable {
        let received = Mutex<[(body: Data, headers: [String: String])]>([])
    }

    @Test func aCompletedJourneyReachesTheCompanyOnceSignedAndWithoutPersonalData() async throws {
        try await withWorkers(realTime: true) { h in
            let inbox = Inbox()
            var router = Router()
            router.post("/hook") { request in
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.lowercased()] = field.value }
                inbox.received.withLock { $0.append((request.body, headers)) }
                return HTTPResponse(status: .noContent)
            }
            let receiver = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0), router: router, accessLog: { _ in })
            try receiver.start()
            defer { Task { await receiver.shutdown() } }

            let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("hook-\(UUID().uuidString).pem")
            try h.privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: keyFile) }
            var variables = CrashTests.childEnvironment(h, keyFile: keyFile)
            variables["JOURNEYS_WEBHOOK_ALLOW_HOSTS"] = "127.0.0.1"  // the receiver is on loopback
            let prefix = String(h.writer.split(separator: "_")[1])
            let set = await run(
                [
                    "webhooks", "set", prefix, "--url", "http://127.0.0.1:\(try #require(receiver.port))/hook",
                    "--events", "journey.completed",
                ], variables)
            #expect(set.code == 0, "\(set.error)")
            let secretText = try #require(
                set.output.split(separator: "\n").first { $0.hasPrefix("secret:") }?
                    .split(separator: " ").last.map(String.init))
            let secret = try #require(WebhookSecret(secretText))

            let id = try await h.startCreated()
            #expect(try await h.capture(id, as: .approve))
            #expect(try await h.state(id).status == .completed)

            let work = Task { await run(["work", "--poll-interval", "0.1"], variables) }
            // Received, and recorded delivered: the dispatcher sends it no more.
            let unsettled = await captureError {
                try await waitUntil("the delivery is received and recorded delivered") {
                    guard !inbox.received.withLock({ $0.isEmpty }) else { return false }
                    return try await h.database.owner.query(
                        "SELECT count(*)::int FROM webhook_deliveries WHERE delivered_at IS NULL"
                    )
                    .first?.decode(0, as: Int.self) == 0
                }
            }
            work.cancel()
            #expect(await work.value.code == 0)
            if let unsettled { throw unsettled }

            let deliveries = inbox.received.withLock { $0 }
            #expect(deliveries.count == 1)
            let delivery = try #require(deliveries.first)
            #expect(throws: Never.self) {
                try StandardWebhookVerifier(secret: secret).verify(body: delivery.body, headers: delivery.headers)
            }
            let json = try #require(try JSONSerialization.jsonObject(with: delivery.body) as? [String: Any])
            #expect(json["type"] as? String == "journey.completed")
            let data = try #require(json["data"] as? [String: Any])
            #expect(data["journeyId"] as? String == id.rawValue)
            let text = String(decoding: delivery.body, as: UTF8.self)
            #expect(!text.contains("12345678909") && !text.contains("Maria"))
        }
    }

    private func run(_ arguments: [String], _ variables: [String: String]) async -> (code: Int32, output: String, error: String) {
        await JourneysCommand.run(arguments, variables: variables)
    }
}
