import CLI
import Foundation
import JourneyApp

/// `journeys bench rebuild`.
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
            .optional("batch-size", valueName: "N", help: "Events per rebuild batch.", default: "2000"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: RebuildBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = RebuildBenchmark.Configuration()
        configuration.events = try arguments.int("events", in: 1...50_000_000)
        configuration.batchSize = try arguments.int("batch-size", in: 1...100_000)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: 2)
        defer { client.close() }
        let quiet = json
        let result = try await RebuildBenchmark(client: client, configuration: configuration).run { step in
            if !quiet { StandardStream.error.writeLine(step) }
        }
        if json { return try printJSON(result) }
        var table = TextTable(columns: ["workload", .init("events/s", alignment: .right), .init("seconds", alignment: .right),
                                        .init("ratio", alignment: .right)])
        table.append(["rebuild journey_state (ProjectionRebuilder)", String(format: "%.0f", result.rebuild_events_per_s),
                      String(format: "%.2f", result.rebuild_seconds), String(format: "%.2f", result.ratio_to_read)])
        table.append(["read all events in global order (baseline)", String(format: "%.0f", result.read_events_per_s),
                      String(format: "%.2f", result.read_seconds), "1.00"])
        let out = AppEnvironment.current.writeLine
        out("\(result.events) events in \(result.journeys) journeys (generated in \(String(format: "%.1f", result.generate_seconds)) s), "
            + "batch \(result.batch_size); rows: journey_state \(result.rows_journey_state), journey_attempts \(result.rows_journey_attempts)")
        out(table.render())
    }
}
