import CLI
import Foundation
import JourneyApp

/// `journeys bench e2e`.
struct BenchE2E: Command {
    static let configuration = CommandConfiguration(
        name: "e2e", summary: "Journey starts through service, emulator and PostgreSQL versus Create Process alone.",
        discussion: "Runs the emulator (rate limit off) and the service in this process on the embedded cluster or DATABASE_URL.",
        options: [
            .optional("clients", valueName: "N", help: "Concurrent callers.", default: "8"),
            .optional("seconds", valueName: "S", help: "Seconds per workload.", default: "5"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: EndToEndBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = EndToEndBenchmark.Configuration()
        configuration.clients = try arguments.int("clients", in: 1...256)
        configuration.seconds = try arguments.double("seconds", in: 0.5...600)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: configuration.clients + 4)
        defer { database.close() }
        let result = try await EndToEndBenchmark(database: database, configuration: configuration).run()
        if json { return try printJSON(result) }
        var table = TextTable(columns: ["workload", .init("starts/s", alignment: .right), .init("p50 ms", alignment: .right),
                                        .init("p99 ms", alignment: .right), .init("ratio", alignment: .right),
                                        .init("failures", alignment: .right)])
        for (name, group) in [("POST /v1/journeys (service+emulator+PostgreSQL)", result.journey_start),
                              ("Create Process alone (baseline)", result.unico_create_process_baseline)] {
            table.append([name, String(format: "%.0f", group.starts_per_s), String(format: "%.2f", group.p50_ms),
                          String(format: "%.2f", group.p99_ms), String(format: "%.2f", group.ratio_to_baseline ?? 1),
                          String(group.failures)])
        }
        AppEnvironment.current.writeLine("\(configuration.clients) clients, \(configuration.seconds) s per workload")
        AppEnvironment.current.writeLine(table.render())
    }
}
