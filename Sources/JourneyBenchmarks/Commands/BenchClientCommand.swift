import CLI
import Foundation
import JourneyApp
import Postgres

/// `journeys-bench client`.
struct BenchClient: Command {
    static let configuration = CommandConfiguration(
        name: "client", summary: "Our PostgreSQL client versus pgbench -M prepared on a bare INSERT and a point SELECT.",
        discussion: """
            Both run the same statements with the same number of clients against the same \
            server, one after the other: our client with its prepared-statement cache, pgbench \
            (found beside pg_ctl, or in PG_BINDIR) with -M prepared, and our client with the cache \
            off. Prints rows per second and ratio_to_pgbench. Runs in a fresh database \
            (journeys_bench) on the embedded cluster, or on DATABASE_ADMIN_URL.
            """,
        options: [
            .optional("clients", valueName: "N", help: "Concurrent clients (connections).", default: "8"),
            .optional("seconds", valueName: "S", help: "Seconds per workload (whole seconds for pgbench).", default: "5"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: ClientBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = ClientBenchmark.Configuration()
        configuration.clients = try arguments.int("clients", in: 1...64)
        configuration.seconds = Double(try arguments.int("seconds", in: 1...600))
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: 1)
        let database = client.database
        client.close()
        let ticker =
            json
            ? nil
            : BenchProgress.start(
                label: "bench client", seconds: Double(ClientBenchmark.workloadCount) * configuration.seconds)
        let result = try await ClientBenchmark(database: database, configuration: configuration).run()
        await ticker?.finish()
        let out = AppEnvironment.current.writeLine
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "statement", .init("rows/s", alignment: .right), .init("p50 ms", alignment: .right),
            .init("p99 ms", alignment: .right), .init("pgbench rows/s", alignment: .right),
            .init("ratio", alignment: .right), .init("cache off rows/s", alignment: .right),
            .init("cache off ratio", alignment: .right),
        ])
        for (name, group) in [("bare INSERT", result.insert), ("point SELECT", result.select)] {
            table.append([
                name, format(group.rows_per_s, 0), format(group.p50_ms, 2), format(group.p99_ms, 2),
                format(group.pgbench_rows_per_s, 0), format(group.ratio_to_pgbench, 2),
                format(group.uncached_rows_per_s, 0), format(group.uncached_ratio_to_pgbench, 2),
            ])
        }
        out(
            "\(configuration.clients) clients, \(configuration.seconds) s per workload; ratio = our rows/s ÷ pgbench -M prepared rows/s"
        )
        out(table.render())
    }

    private func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}
