import Foundation
import JourneyTesting
import Testing

@Suite struct LoadCommandTests {
    /// `journeys load` against a listening service: every key ends with a 201 naming a journey the
    /// log holds under the key's clientReference, and the report records each attempt.
    @Test func loadReportsEveryKeyWithItsJourney() async throws {
        var options = TestStack.Options(time: .system, listen: true)
        options.emulatorRateLimit = 1000
        options.clientRateLimit = 100
        try await TestStack.with(options) { stack in
            let port = try #require(stack.port)
            let folder = NSTemporaryDirectory() + "journeys-load-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let result = await journeys([
                "load", "--base-url", "http://127.0.0.1:\(port)", "--api-key", stack.writer, "--clients", "2",
                "--duration", "1", "--key-interval", "0.2", "--drain", "10", "--report", folder + "/report.json",
                "--status-file", folder + "/status",
            ])
            #expect(result.code == 0, "\(result.error)")
            #expect(result.output.contains("acknowledged (2xx), 0 without a final answer"))
            let report = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
            let keys = try #require(report["keys"] as? [[String: Any]])
            #expect(keys.count >= 2)
            for key in keys {
                #expect(key["finalStatus"] as? Int == 201)
                let id = try #require(key["journeyId"] as? String)
                let journey = try await stack.send("GET", "/v1/journeys/\(id)", bearer: stack.reader)
                #expect(journey.status == 200)
                #expect(journey.json["clientReference"] as? String == key["clientReference"] as? String)
            }
            let counts = try #require(report["statusCounts"] as? [String: Int])
            #expect(counts["201"] == keys.count)
            let status = try String(contentsOfFile: folder + "/status", encoding: .utf8)
            #expect(status.hasPrefix("waiting=0 "))
            #expect(status.contains("stopped=1"))
        }
    }

    /// A service that is not there (and a load of no duration: one key per client): no answer is status 0, the key stays without a final answer
    /// once the drain ends, and the command still writes its report.
    @Test func unreachableServiceLeavesKeysUnresolved() async throws {
        let port = try freePort()
        let report = NSTemporaryDirectory() + "journeys-load-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = await journeys([
            "load", "--base-url", "http://127.0.0.1:\(port)", "--api-key", "jk_none", "--clients", "1",
            "--duration", "0", "--retry-interval", "0.1", "--drain", "0.3", "--report", report,
        ])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output.contains("0 acknowledged (2xx), 1 without a final answer"))
        #expect(result.output.contains("no answer"))
    }

    /// Bad options name the option and exit 64.
    @Test func badOptionsNameTheOption() async {
        let url = await journeys(["load", "--base-url", "localhost:8080", "--api-key", "k"])
        #expect(url.code == 64)
        #expect(url.error.contains("--base-url"))
        let clients = await journeys(["load", "--base-url", "http://127.0.0.1:1", "--api-key", "k", "--clients", "0"])
        #expect(clients.code == 64)
        #expect(clients.error.contains("--clients"))
        let missing = await journeys(["load", "--base-url", "http://127.0.0.1:1"])
        #expect(missing.code == 64)
        #expect(missing.error.contains("--api-key"))
    }
}
