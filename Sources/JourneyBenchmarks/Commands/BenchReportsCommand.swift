import CLI
import Foundation
import JourneyApp

/// `journeys-bench reports`.
struct BenchReports: Command {
    static let configuration = CommandConfiguration(
        name: "reports", summary: "Every report and the dashboard over 30 days and 1 year of N generated journeys.",
        discussion: """
            Writes N journeys spread over two years (1-4 attempts; approved, rejected, expired, SDK \
            errors, closed cameras, a few waiting for a result) straight into the read models of a \
            fresh database (journeys_bench) on the embedded cluster, or of DATABASE_ADMIN_URL when \
            they are empty, fills the daily rollups, then times each report and the dashboard \
            (p50/p95 over the runs) and checks each answer against the same report read from every \
            journey of the window.
            """,
        options: [
            .optional("journeys", valueName: "N", help: "Journeys to generate.", default: "2000000"),
            .optional("runs", valueName: "R", help: "Timed runs per report and window.", default: "10"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: ReportsBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = ReportsBenchmark.Configuration()
        configuration.journeys = try arguments.int("journeys", in: 1...20_000_000)
        configuration.runs = try arguments.int("runs", in: 1...1000)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: 2)
        defer { client.close() }
        let quiet = json
        let result = try await ReportsBenchmark(client: client, configuration: configuration).run { step in
            if !quiet { StandardStream.error.writeLine(step) }
        }
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "report", "window", .init("journeys", alignment: .right), .init("p50 ms", alignment: .right),
            .init("p95 ms", alignment: .right), "exact",
        ])
        for timing in result.timings {
            table.append([
                timing.report, timing.window, String(timing.journeys_in_window), String(format: "%.1f", timing.p50_ms),
                String(format: "%.1f", timing.p95_ms), timing.exact ? "yes" : "NO",
            ])
        }
        let out = AppEnvironment.current.writeLine
        out(
            "\(result.journeys) journeys, \(result.attempts) attempts, loaded in \(String(format: "%.1f", result.load_seconds)) s "
                + "(\(String(format: "%.0f", result.load_journeys_per_s)) journeys/s); \(result.runs) runs each")
        out(table.render())
    }
}
