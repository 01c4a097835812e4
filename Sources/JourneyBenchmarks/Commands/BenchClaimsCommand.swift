import CLI
import EmbeddedPostgres
import Foundation
import JourneyApp
import Postgres

/// `journeys-bench claims`.
struct BenchClaims: Command {
    static let configuration = CommandConfiguration(
        name: "claims", summary: "Due items claimed per second by workers versus a bare SKIP LOCKED queue.",
        discussion: """
            Inserts --journeys rows into journey_state (--due-percent of them due now) with generate_series, \
            then --claimers WorkerService claimers, each a separate `journeys-bench claims-worker` process \
            (or a task of this process with --in-process) with its own connection pool, claim and finish every \
            due item (seed from journey_state, SKIP LOCKED claim with lease, load the journey's stream, mark \
            done). The baseline deletes the same number of due rows from a bare table with \
            DELETE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n). Runs in a fresh database \
            (journeys_bench) on the embedded cluster; on DATABASE_ADMIN_URL only if it holds no journeys.
            """,
        options: [
            .optional("journeys", valueName: "N", help: "Rows in journey_state.", default: "1000000"),
            .optional("due-percent", valueName: "P", help: "Percent of them due now.", default: "1"),
            .optional("claimers", valueName: "N", help: "Concurrent claimers (separate pools).", default: "2"),
            .optional("batch-size", valueName: "N", help: "Items per claim.", default: "50"),
            .optional("concurrency", valueName: "N", help: "Items performed at once per claimer.", default: "4"),
        ],
        flags: [
            FlagSpec("json", help: "Print one JSON object instead of a table."),
            FlagSpec("in-process", help: "Run the worker claimers as tasks of this process, not as processes."),
        ])
    let configuration: ClaimsBenchmark.Configuration
    let json: Bool

    init(arguments: ParsedArguments) throws {
        var configuration = ClaimsBenchmark.Configuration()
        configuration.journeys = try arguments.int("journeys", in: 100...50_000_000)
        configuration.duePercent = try arguments.double("due-percent", in: 0.01...100)
        configuration.claimers = try arguments.int("claimers", in: 1...32)
        configuration.batchSize = try arguments.int("batch-size", in: 1...10_000)
        configuration.concurrency = try arguments.int("concurrency", in: 1...64)
        configuration.inProcess = try arguments.flag("in-process")
        self.configuration = configuration
        json = try arguments.flag("json")
    }

    func run() async throws {
        let settings = AppEnvironment.current.database
        let setup = try await BenchDatabase.open(settings, poolSize: 1)
        defer { setup.close() }
        let claimerURL: String
        if let url = settings.url ?? settings.adminURL {
            claimerURL = url
        } else {
            claimerURL = try settings.embedded.start().url(user: EmbeddedPostgres.appRole, database: "journeys_bench")
        }
        let quiet = json
        let result = try await ClaimsBenchmark(setup: setup, claimerURL: claimerURL, configuration: configuration).run {
            if !quiet { StandardStream.error.writeLine($0) }
        }
        if json { return try printJSON(result) }
        var table = TextTable(columns: [
            "workload", .init("claims/s", alignment: .right), .init("batch p50 ms", alignment: .right),
            .init("batch p99 ms", alignment: .right), .init("claims", alignment: .right),
            .init("duplicates", alignment: .right), .init("ratio", alignment: .right),
        ])
        let claimers = configuration.inProcess ? "WorkerService claimers in this process" : "WorkerService claimer processes"
        for (name, group) in [
            ("\(claimers) (lease, perform, done)", result.worker_claims),
            ("WorkQueue alone (seed, claim, done; no perform)", result.queue_only_claims),
            ("bare DELETE ... SKIP LOCKED (baseline)", result.skip_locked_delete_baseline),
        ] {
            table.append([
                name, String(format: "%.0f", group.claims_per_s), String(format: "%.2f", group.p50_ms),
                String(format: "%.2f", group.p99_ms), String(group.claims), String(group.duplicates),
                String(format: "%.2f", group.ratio_to_baseline ?? 1),
            ])
        }
        AppEnvironment.current.writeLine(
            "\(result.journeys) journeys, \(result.due) due, \(result.claimers) claimers, "
                + "batch \(result.batch_size); rows inserted in \(String(format: "%.1f", result.insert_s)) s")
        AppEnvironment.current.writeLine(table.render())
    }
}

/// `journeys-bench claims-worker`: one claimer process of `bench claims`, which spawns it.
struct BenchClaimsWorker: Command {
    static let configuration = CommandConfiguration(
        name: "claims-worker", summary: "One claimer process of 'bench claims' (spawned by it; prints one JSON line).",
        options: [
            .required("url", valueName: "URL", help: "Application-role URL of the bench database."),
            .required("due", valueName: "N", help: "Due items in all; stops when that many are done."),
            .optional("batch-size", valueName: "N", help: "Items per claim.", default: "50"),
            .optional("concurrency", valueName: "N", help: "Items performed at once.", default: "4"),
            .optional("id", valueName: "ID", help: "Worker id.", default: "bench-claimer"),
        ])
    let url: String
    let due: Int
    let batchSize: Int
    let concurrency: Int
    let id: String

    init(arguments: ParsedArguments) throws {
        url = try arguments.string("url")
        due = try arguments.int("due", in: 0...50_000_000)
        batchSize = try arguments.int("batch-size", in: 1...10_000)
        concurrency = try arguments.int("concurrency", in: 1...64)
        id = try arguments.string("id")
    }

    func run() async throws {
        let pool = try PostgresClient(url: url, configuration: .init(maxConnections: concurrency + 1))
        defer { pool.close() }
        try printJSON(
            try await ClaimsBenchmark.claimUntilDone(
                pool: pool, due: due, batchSize: batchSize,
                concurrency: concurrency, workerID: id))
    }
}
