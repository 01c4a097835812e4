import Foundation
import HTTPServer
import JourneyTesting
@testable import JourneyBenchmarks
import Synchronization
import Testing

/// The e2e bench's socket load client against the real HTTP server on loopback.
@Suite struct LoadClientTests {
    @Test func sendsRequestsOverKeptAliveConnectionsAndCountsOtherStatusesAsFailures() async throws {
        let seen = Mutex<[String]>([])
        var router = Router()
        router.post("/v1/journeys") { request in
            let key = request.headers["Idempotency-Key"] ?? ""
            seen.withLock { $0.append(key + " " + String(decoding: request.body, as: UTF8.self)) }
            return key.hasPrefix("bad") ? .text("no", status: 422) : .text("made", status: .created)
        }
        let server = HTTPServer(
            configuration: HTTPServer.Configuration(port: 0), router: router, accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port.flatMap { UInt16(exactly: $0) })
        // Blocking socket reads run off the cooperative pool: on 2 cores they would take a thread
        // the server's handlers (and every parallel test) need.
        let statuses = try await offPool {
            var connection = LoopbackConnection(port: port)
            defer { connection.close() }
            var statuses = try (0..<3).map { index in
                try connection.exchange(
                    .init(
                        method: "POST", path: "/v1/journeys",
                        headers: [("Idempotency-Key", "k\(index)")], body: Array("{\"n\":\(index)}".utf8)))
            }
            statuses.append(
                try connection.exchange(
                    .init(method: "POST", path: "/v1/journeys", headers: [("Idempotency-Key", "bad")], body: [])))
            return statuses
        }
        #expect(statuses == [201, 201, 201, 422])
        #expect(seen.withLock { $0 } == ["k0 {\"n\":0}", "k1 {\"n\":1}", "k2 {\"n\":2}", "bad "])

        let counter = Atomic<Int>(0)
        let (durations, failures) = await EndToEndBenchmark.LoadClient(port: port).run(
            callers: 3, until: .now + .milliseconds(300), expected: 201
        ) {
            let odd = counter.add(1, ordering: .relaxed).newValue % 2 == 1
            return .init(method: "POST", path: "/v1/journeys", headers: [("Idempotency-Key", odd ? "bad" : "ok")], body: [])
        }
        #expect(!durations.isEmpty)
        #expect(failures > 0)
        #expect(durations.count + failures == counter.load(ordering: .relaxed))
        await server.shutdown()
    }

    @Test func readsCPUTimeAndParentFromProcStat() {
        let stat = "4242 (postgres: app journeys [local] idle) S 77 4242 4242 0 -1 4194560 500 0 0 0 250 150 0 0 20 0 1 0 1 0 0"
        let parsed = EndToEndBenchmark.ProcStat(stat: stat)
        #expect(parsed?.parent == 77)
        #expect(parsed.map { abs($0.cpuSeconds - 400 / Double(sysconf(Int32(_SC_CLK_TCK)))) < 1e-9 } == true)
        #expect(EndToEndBenchmark.ProcStat(stat: "garbage") == nil)
        #expect(EndToEndBenchmark.CPUTime.now(dataDirectory: nil).process > 0)
    }
}
