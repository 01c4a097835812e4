import CLI
import EmbeddedPostgres
import Foundation
import JourneyApp
import Postgres

/// `journeys-bench e2e`.
struct BenchE2E: Command {
    static let configuration = CommandConfiguration(
        name: "e2e", summary: "Journey starts through service, emulator and PostgreSQL versus Create Process alone.",
        discussion: """
            Runs the emulator (rate limit off) and the service in this process on the embedded cluster or DATABASE_URL. \
            --through-pgbouncer then runs the starts again with the service's pool through a PgBouncer in transaction \
            mode on loopback (embedded cluster only; LISTEN stays direct) and reports both in one run. \
            Then a table of where a start's time goes in the service, stage by stage (p50, p99, mean): \
            authenticate, validate, transaction_begin/commit (pool, thread hop, BEGIN/COMMIT), idempotency, seal, \
            start_transaction, unico_rate_wait, unico_create_process, record_transaction, answer, lease, other; \
            handler is their sum per start. Last, CPU per start from the kernel's counters: this process (service, \
            emulator, load client) and the embedded cluster's processes (process_cpu_ms_per_start, postgres_cpu_ms_per_start).
            """,
        options: [
            .optional("clients", valueName: "N", help: "Concurrent callers.", default: "8"),
            .optional("seconds", valueName: "S", help: "Seconds per workload.", default: "5"),
            .optional(
                "load-client", valueName: "KIND",
                help: "What sends the starts: sockets (a keep-alive connection per caller on its own thread, like wrk) "
                    + "or urlsession (FoundationNetworking in this process, the client before session 7).",
                default: "sockets"),
        ],
        flags: [
            FlagSpec("json", help: "Print one JSON object instead of a table."),
            FlagSpec("through-pgbouncer", help: "Also measure the starts through a local PgBouncer (transaction mode)."),
        ])
    let configuration: EndToEndBenchmark.Configuration
    let json: Bool
    let throughPgBouncer: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = EndToEndBenchmark.Configuration()
        configuration.clients = try arguments.int("clients", in: 1...256)
        configuration.seconds = try arguments.double("seconds", in: 0.5...600)
        configuration.loadClient = try arguments.choice("load-client")
        self.configuration = configuration
        json = try arguments.flag("json")
        throughPgBouncer = try arguments.flag("through-pgbouncer")
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: configuration.clients + 4)
        defer { database.close() }
        var result = try await EndToEndBenchmark(database: database, configuration: configuration).run()
        if throughPgBouncer {
            let bounced = try await EndToEndBenchmark(database: database, configuration: configuration).runThroughPgBouncer()
            let direct = result.journey_start.starts_per_s
            result.journey_start_through_pgbouncer = EndToEndBenchmark.Group(
                starts_per_s: bounced.starts_per_s, p50_ms: bounced.p50_ms, p99_ms: bounced.p99_ms,
                ratio_to_baseline: direct > 0 ? bounced.starts_per_s / direct : 0, failures: bounced.failures)
        }
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "workload", .init("starts/s", alignment: .right), .init("p50 ms", alignment: .right),
            .init("p99 ms", alignment: .right), .init("ratio", alignment: .right),
            .init("failures", alignment: .right),
        ])
        var rows = [
            ("POST /v1/journeys createProcess=now (service+emulator+PostgreSQL)", result.journey_start),
            ("Create Process alone (baseline)", result.unico_create_process_baseline),
        ]
        if let deferred = result.journey_start_without_process {
            rows.append(("POST /v1/journeys default, no Unico call (ratio to createProcess=now)", deferred))
        }
        if let token = result.first_token { rows.append(("first POST …/token after it (ratio to baseline)", token)) }
        for (name, group) in rows
            + (result.journey_start_through_pgbouncer.map { [("POST /v1/journeys through PgBouncer (ratio to direct)", $0)] }
                ?? [])
        {
            table.append([
                name, String(format: "%.0f", group.starts_per_s), String(format: "%.2f", group.p50_ms),
                String(format: "%.2f", group.p99_ms), String(format: "%.2f", group.ratio_to_baseline ?? 1),
                String(group.failures),
            ])
        }
        AppEnvironment.current.writeLine(
            "\(configuration.clients) clients, \(configuration.seconds) s per workload, "
                + "load client \(configuration.loadClient.rawValue)")
        AppEnvironment.current.writeLine(table.render())
        var stages = TextTable(columns: [
            "start stage", .init("p50 ms", alignment: .right), .init("p99 ms", alignment: .right),
            .init("mean ms", alignment: .right),
        ])
        for figure in result.start_stages {
            stages.append([
                figure.stage, String(format: "%.2f", figure.p50_ms), String(format: "%.2f", figure.p99_ms),
                String(format: "%.2f", figure.mean_ms),
            ])
        }
        if let outside = result.start_outside_handler_mean_ms {
            stages.append(["outside the handler (HTTP, scheduling)", "", "", String(format: "%.2f", outside)])
        }
        AppEnvironment.current.writeLine("\n" + stages.render())
        if let process = result.process_cpu_ms_per_start {
            let postgres = result.postgres_cpu_ms_per_start.map { String(format: ", PostgreSQL %.2f ms", $0) } ?? ""
            AppEnvironment.current.writeLine(
                String(format: "\nCPU per start: this process (service, emulator, load client) %.2f ms", process)
                    + postgres)
        }
    }
}
