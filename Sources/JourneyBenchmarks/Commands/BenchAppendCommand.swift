import CLI
import EmbeddedPostgres
import Foundation
import JourneyApp
import Migrations
import Postgres

/// `journeys-bench append`.
struct BenchAppend: Command {
    static let configuration = CommandConfiguration(
        name: "append", summary: "Appends with every guarantee on versus a raw INSERT ceiling.",
        discussion: """
            Writers append single events and batches to their own streams with exact expected \
            versions, unique ids, the hash chain and the gap-safe global order; the ceiling \
            inserts the same rows into a bare table through the same client. The baseline is \
            Message DB's write_message with every stream in one category. Each append runs in \
            its own transaction (direct), then group-committed: concurrent appends to different \
            streams in one round trip and one commit. Runs in a fresh database (journeys_bench) \
            on the embedded cluster, or on DATABASE_ADMIN_URL.
            """,
        options: [
            .optional("writers", valueName: "N", help: "Concurrent writers.", default: "8"),
            .optional("seconds", valueName: "S", help: "Seconds per workload.", default: "5"),
            .optional("batch-size", valueName: "N", help: "Events per batched append.", default: "10"),
            .optional("grouped-writers", valueName: "N", help: "Writers of the many-writer grouped workload.", default: "64"),
            .optional("concurrent-groups", valueName: "N", help: "Groups in flight at once when grouped.", default: "4"),
        ],
        flags: [FlagSpec("json", help: "Print one JSON object instead of a table.")])
    let configuration: AppendBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = AppendBenchmark.Configuration()
        configuration.writers = try arguments.int("writers", in: 1...64)
        configuration.seconds = try arguments.double("seconds", in: 0.5...600)
        configuration.batchSize = try arguments.int("batch-size", in: 2...1000)
        configuration.manyWriters = try arguments.int("grouped-writers", in: 1...4096)
        configuration.concurrentGroups = try arguments.int("concurrent-groups", in: 1...64)
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let client = try await BenchDatabase.open(AppEnvironment.current.database, poolSize: configuration.writers)
        defer { client.close() }
        let quiet = json
        let result = try await AppendBenchmark(client: client, configuration: configuration).run { workload in
            if !quiet { StandardStream.error.writeLine("running \(workload)") }
        }
        let out = AppEnvironment.current.writeLine
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "workload", .init("appends/s", alignment: .right), .init("events/s", alignment: .right),
            .init("p50 ms", alignment: .right), .init("p99 ms", alignment: .right),
            .init("ratio", alignment: .right),
        ])
        let rows: [(String, AppendBenchmark.Group)] = [
            ("single append", result.single), ("single raw INSERT (ceiling)", result.single_ceiling),
            ("single raw INSERT + order index", result.single_ceiling_with_order_index),
            ("\(configuration.batchSize)-event append", result.batch),
            ("\(configuration.batchSize)-row raw INSERT (ceiling)", result.batch_ceiling),
            ("Message DB write_message, one category", result.message_db_single),
            ("single append, grouped", result.grouped_single),
            ("\(configuration.batchSize)-event append, grouped", result.grouped_batch),
            ("single append, grouped, \(result.grouped_writers) writers", result.grouped_single_many_writers),
        ]
        for (name, group) in rows {
            table.append([
                name, format(group.appends_per_s, 0), format(group.events_per_s, 0), format(group.p50_ms, 2),
                format(group.p99_ms, 2), group.ratio_to_ceiling.map { format($0, 2) } ?? "1.00",
            ])
        }
        out("\(configuration.writers) writers, \(configuration.seconds) s per workload; ordering: \(result.ordering_strategy)")
        out(table.render())
        out(
            "single append to Message DB: \(format(result.single_ratio_to_message_db, 2))x direct, "
                + "\(format(result.grouped_single_ratio_to_message_db, 2))x grouped")
    }

    private func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// A fresh, migrated database for benchmarks.
enum BenchDatabase {
    static func open(_ settings: DatabaseSettings, poolSize: Int) async throws -> PostgresClient {
        if let url = settings.adminURL ?? settings.url {
            let client = try PostgresClient(url: url, configuration: .init(maxConnections: poolSize))
            try await Migrations.Migrator().migrate(client)
            return client
        }
        let cluster = settings.embedded
        let status = try cluster.start()
        try await cluster.dropDatabase("journeys_bench", status: status)
        try await cluster.createDatabase("journeys_bench", status: status)
        let client = try PostgresClient(
            url: status.url(user: EmbeddedPostgres.ownerRole, database: "journeys_bench"),
            configuration: .init(maxConnections: poolSize))
        try await Migrations.Migrator().migrate(client)
        return client
    }
}

/// Writes `value` as one line of JSON with sorted keys (the `--json` output of benchmarks).
func printJSON<Value: Encodable>(_ value: Value) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    AppEnvironment.current.writeLine(String(decoding: try encoder.encode(value), as: UTF8.self))
}
