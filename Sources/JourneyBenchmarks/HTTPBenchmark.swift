import EmbeddedPostgres
import Foundation
import HTTPServer
import JourneyApp

/// `journeys-bench http`: wrk against the libmicrohttpd server on loopback, a trivial route as
/// the baseline and a JSON route (encoding plus routing with a path parameter) beside it.
public struct HTTPBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Seconds per workload. Default 5.
        public var seconds = 5
        /// Concurrent connections. Default 50.
        public var connections = 50
        /// MHD threads. Default 2 (one per core here).
        public var serverThreads = 2
        public init() {}
    }

    public struct Group: Sendable, Codable, Equatable {
        public let requests_per_s: Double
        public let p50_ms: Double
        public let p99_ms: Double
        public let ratio_to_baseline: Double?
    }

    public struct Result: Sendable, Codable, Equatable {
        public let ping: Group
        public let json: Group
        public let connections: Int
        public let seconds: Int
    }

    public let configuration: Configuration
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func run() async throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            throw AppError(.invalidInput, "wrk is not installed (apt-get install -y wrk)")
        }
        var router = Router()
        router.get("/ping") { _ in .text("pong") }
        router.get("/journeys/{id}") { request in
            try .json(["id": try request.pathParameter("id"), "state": "tokenIssued", "attempt": "1"])
        }
        var serverConfiguration = HTTPServer.Configuration(port: 0)
        serverConfiguration.threadPoolSize = configuration.serverThreads
        serverConfiguration.connectionLimitPerAddress = 0  // wrk opens every connection from 127.0.0.1
        let server = HTTPServer(configuration: serverConfiguration, router: router, accessLog: AccessLogEntry.discard)
        try server.start()
        let measured: (ping: (rate: Double, p50: Double, p99: Double), json: (rate: Double, p50: Double, p99: Double))
        do {
            guard let port = server.port else { throw AppError(.invalidInput, "the server did not bind a port") }
            measured = (
                try wrk("http://127.0.0.1:\(port)/ping"),
                try wrk("http://127.0.0.1:\(port)/journeys/0193a5e0-0000-7000-8000-000000000001")
            )
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        let (ping, json) = measured
        return Result(
            ping: Group(requests_per_s: ping.rate, p50_ms: ping.p50, p99_ms: ping.p99, ratio_to_baseline: nil),
            json: Group(
                requests_per_s: json.rate, p50_ms: json.p50, p99_ms: json.p99,
                ratio_to_baseline: ping.rate > 0 ? json.rate / ping.rate : nil),
            connections: configuration.connections, seconds: configuration.seconds)
    }

    private func wrk(_ url: String) throws -> (rate: Double, p50: Double, p99: Double) {
        let output = try ShellCommand(
            executable: "/usr/bin/wrk",
            arguments: [
                "-t2", "-c\(configuration.connections)", "-d\(configuration.seconds)s", "--latency", url,
            ]
        ).run()
        guard output.status == 0 else { throw AppError(.invalidInput, "wrk failed: \(output.text.suffix(300))") }
        return (
            Self.number(after: "Requests/sec:", in: output.text) ?? 0,
            Self.latency("50%", in: output.text) ?? 0, Self.latency("99%", in: output.text) ?? 0
        )
    }

    /// The number following `label` on its line.
    static func number(after label: String, in text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
        return line.split(separator: " ").last.flatMap { Double($0) }
    }

    /// A latency percentile line such as `  99%    3.12ms`, in milliseconds.
    static func latency(_ percentile: String, in text: String) -> Double? {
        guard
            let line = text.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(percentile) }
            ),
            let value = line.split(separator: " ").last
        else { return nil }
        let units: [(String, Double)] = [("us", 0.001), ("ms", 1), ("s", 1000)]
        for (suffix, factor) in units where value.hasSuffix(suffix) {
            return Double(value.dropLast(suffix.count)).map { $0 * factor }
        }
        return nil
    }
}
