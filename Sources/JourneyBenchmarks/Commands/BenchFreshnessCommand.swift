import CLI
import Foundation
import JourneyApp

/// `journeys-bench freshness`.
struct BenchFreshness: Command {
    static let configuration = CommandConfiguration(
        name: "freshness",
        summary: "Append-commit to journey_state-visible latency (p50/p99) at half the sustainable append rate.",
        discussion: """
            Measures the sustainable rate of journey-start appends first, then appends at half of it \
            with a live projection runner (LISTEN/NOTIFY wake-up) and polls journey_state for each \
            append. The baseline is the append's own commit latency. Runs in a fresh database \
            (journeys_bench) on the embedded cluster, or on DATABASE_ADMIN_URL.
            """,
        options: [
            .optional("writers", valueName: "N", help: "Concurrent writers.", default: "4"),
            .optional("seconds", valueName: "S", help: "Seconds of paced appends.", default: "10"),
            .optional("probe-seconds", valueName: "S", help: "Seconds spent finding the sustainable rate.", default: "3"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: FreshnessBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = FreshnessBenchmark.Configuration()
        configuration.writers = try arguments.int("writers", in: 1...64)
        configuration.seconds = try arguments.double("seconds", in: 0.5...600)
        configuration.probeSeconds = try arguments.double("probe-seconds", in: 0.5...60)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: configuration.writers + 3)
        defer { client.close() }
        let quiet = json
        let result = try await FreshnessBenchmark(client: client, configuration: configuration).run { step in
            if !quiet { StandardStream.error.writeLine(step) }
        }
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "latency", .init("p50 ms", alignment: .right), .init("p99 ms", alignment: .right),
            .init("ratio", alignment: .right),
        ])
        table.append([
            "append commit -> journey_state row", String(format: "%.2f", result.p50_ms), String(format: "%.2f", result.p99_ms),
            String(format: "%.2f", result.ratio_p50_to_append_p50),
        ])
        table.append([
            "  of which: commit -> applied by the runner", String(format: "%.2f", result.applied_p50_ms),
            String(format: "%.2f", result.applied_p99_ms), "",
        ])
        table.append([
            "  of which: commit -> runner's COMMIT returned", String(format: "%.2f", result.runner_commit_p50_ms),
            String(format: "%.2f", result.runner_commit_p99_ms), "",
        ])
        table.append([
            "append commit (baseline)", String(format: "%.2f", result.append_p50_ms),
            String(format: "%.2f", result.append_p99_ms),
            "1.00",
        ])
        let out = AppEnvironment.current.writeLine
        out(
            String(
                format:
                    "%d writers; sustainable %.0f appends/s, paced at %.0f/s (achieved %.0f/s); %d samples, max %.1f ms, poll %.1f ms",
                result.writers, result.sustainable_appends_per_s, result.target_appends_per_s, result.achieved_appends_per_s,
                result.samples, result.max_ms, result.poll_interval_ms))
        out(table.render())
        out(
            String(
                format:
                    "during the timed part: %d checkpoints, %d autovacuum/autoanalyze runs, %d WAL full-page images; load average %.2f",
                result.checkpoints_during_run, result.autovacuums_during_run, result.wal_fpi_during_run, result.load_average_1m))
    }
}
