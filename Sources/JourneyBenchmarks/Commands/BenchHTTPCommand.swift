import CLI
import Foundation
import JourneyApp

/// `journeys-bench http`.
struct BenchHTTP: Command {
    static let configuration = CommandConfiguration(
        name: "http", summary: "wrk against the HTTP server: a trivial route (baseline) and a JSON route.",
        options: [
            .optional("seconds", valueName: "S", help: "Seconds per workload.", default: "5"),
            .optional("connections", valueName: "N", help: "Concurrent connections.", default: "50"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: HTTPBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = HTTPBenchmark.Configuration()
        configuration.seconds = try arguments.int("seconds", in: 1...600)
        configuration.connections = try arguments.int("connections", in: 1...5000)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let result = try await HTTPBenchmark(configuration: configuration).run()
        let out = AppEnvironment.current.writeLine
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "route", .init("requests/s", alignment: .right), .init("p50 ms", alignment: .right),
            .init("p99 ms", alignment: .right), .init("ratio", alignment: .right),
        ])
        for (name, group) in [("GET /ping (baseline)", result.ping), ("GET /journeys/{id} (JSON)", result.json)] {
            table.append([
                name, String(format: "%.0f", group.requests_per_s), String(format: "%.2f", group.p50_ms),
                String(format: "%.2f", group.p99_ms), String(format: "%.2f", group.ratio_to_baseline ?? 1),
            ])
        }
        out("wrk -t2 -c\(configuration.connections) -d\(configuration.seconds)s on 127.0.0.1")
        out(table.render())
    }
}
