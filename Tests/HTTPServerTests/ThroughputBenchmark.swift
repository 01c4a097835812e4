import Foundation
import HTTPServer
import Testing

/// Runs `wrk` against a trivial route; only with `HTTPSERVER_WRK=1` (prints wrk's report).
@Suite("HTTPServer throughput")
struct ThroughputBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HTTPSERVER_WRK"] != nil))
    func wrkAgainstPing() async throws {
        var router = Router()
        router.get("/ping") { _ in .text("pong") }
        let sink = ProcessInfo.processInfo.environment["HTTPSERVER_WRK_LOG"] != nil
            ? AccessLogEntry.standardError : AccessLogEntry.discard
        let server = HTTPServer(configuration: .init(port: 0), router: router, accessLog: sink)
        try server.start()
        let port = try #require(server.port)
        let report = try await onThread {
            let wrk = Process()
            wrk.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
            wrk.arguments = ["-t2", "-c50", "-d5s", "--latency", "http://127.0.0.1:\(port)/ping"]
            let pipe = Pipe()
            wrk.standardOutput = pipe
            try wrk.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            wrk.waitUntilExit()
            return String(decoding: output, as: UTF8.self)
        }
        await server.shutdown()
        print(report)
        #expect(report.contains("Requests/sec"))
    }
}
