import CLI
import Foundation
import JourneyApp
import Projections
import Synchronization

/// `journeys-bench rebuild`.
struct BenchRebuild: Command {
    static let configuration = CommandConfiguration(
        name: "rebuild", summary: "Rebuild journey_state over N generated events versus a bare read of them in global order.",
        discussion: """
            Generates realistic journey histories (the domain's own events, ~9 per journey) in a fresh \
            database (journeys_bench) on the embedded cluster, or on DATABASE_ADMIN_URL when its log is \
            empty, then times ProjectionRebuilder against reading the same events in the same batches.
            """,
        options: [
            .optional("events", valueName: "N", help: "Events to generate.", default: "1000000"),
            .optional(
                "batch-size", valueName: "N", help: "Events per rebuild batch.",
                default: "\(ProjectionRebuilder.defaultBatchSize)"),
            .optional(
                "parallelism", valueName: "N", help: "Partitions folding at once (default: the machine's cores, at most 4).",
                default: "\(ProjectionRebuilder.defaultParallelism)"),
            .optional(
                "interleave", valueName: "N",
                help: "Journeys in flight at once: their events interleave in the log (0: each journey's events together).",
                default: "0"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: RebuildBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = RebuildBenchmark.Configuration()
        configuration.events = try arguments.int("events", in: 1...50_000_000)
        configuration.batchSize = try arguments.int("batch-size", in: 1...100_000)
        configuration.parallelism = try arguments.int("parallelism", in: 1...16)
        configuration.interleave = try arguments.int("interleave", in: 0...10_000_000)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        // One connection reads ahead while each partition writes.
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: configuration.parallelism + 2)
        defer { client.close() }
        let quiet = json
        let bar = Mutex<ProgressBar?>(nil)
        let step: @Sendable (String) -> Void = { text in if !quiet { StandardStream.error.writeLine(text) } }
        let rebuilt: @Sendable (Int, Int) -> Void = { done, total in
            bar.withLock { bar in
                if bar == nil { bar = ProgressBar(total: max(total, 1), label: "rebuild") }
                bar?.update(done: done)
                if done >= total { bar?.finish() }
            }
        }
        let result = try await RebuildBenchmark(client: client, configuration: configuration)
            .run(progress: step, rebuilt: quiet ? nil : rebuilt)
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "workload", .init("events/s", alignment: .right), .init("seconds", alignment: .right),
            .init("ratio", alignment: .right),
        ])
        table.append([
            "rebuild journey_state (ProjectionRebuilder, \(result.parallelism) partitions)",
            String(format: "%.0f", result.rebuild_events_per_s), String(format: "%.2f", result.rebuild_seconds),
            String(format: "%.2f", result.ratio_to_bare_read),
        ])
        table.append([
            "bare read of all events in global order (baseline)", String(format: "%.0f", result.read_events_per_s),
            String(format: "%.2f", result.read_seconds), "1.00",
        ])
        let out = AppEnvironment.current.writeLine
        out(
            "\(result.events) events in \(result.journeys) journeys (generated in \(String(format: "%.1f", result.generate_seconds)) s), "
                + "batch \(result.batch_size), interleave \(result.interleave); rows: journey_state \(result.rows_journey_state), journey_attempts \(result.rows_journey_attempts)"
        )
        out(table.render())
    }
}
