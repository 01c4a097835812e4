import EmbeddedPostgres
import Foundation
import JourneyApp
import JourneyEngine
import Postgres
import Synchronization
import Workers

/// `journeys-bench claims`: due items claimed per second by WorkerService claimers on separate
/// connection pools (seed from journey_state, SKIP LOCKED claim with lease, perform, mark done),
/// against a bare `DELETE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n)` queue
/// with the same number of due rows (the baseline: a queue with no leases and no work).
struct ClaimsBenchmark: Sendable {
    struct Configuration: Sendable {
        /// Rows in journey_state. Default 1,000,000.
        var journeys = 1_000_000
        /// Share of them due now, in percent. Default 1.
        var duePercent = 1.0
        /// Claimers, each with its own pool. Default 2.
        var claimers = 2
        /// Items per claim. Default 50.
        var batchSize = 50
        /// Items performed at once per claimer. Default 4.
        var concurrency = 4
        /// Claimers as tasks of this process instead of separate `journeys-bench claims-worker`
        /// processes. Default false (processes, as production runs workers).
        var inProcess = false
    }

    struct Group: Sendable, Codable, Equatable {
        let claims_per_s: Double
        /// Per claimed batch (one `runOnce` or one DELETE ... SKIP LOCKED).
        let p50_ms: Double
        let p99_ms: Double
        let claims: Int
        let seconds: Double
        /// Items claimed more than once (must be 0).
        let duplicates: Int
        let ratio_to_baseline: Double?
    }

    struct Result: Sendable, Codable, Equatable {
        let journeys: Int
        let due: Int
        let claimers: Int
        let batch_size: Int
        let insert_s: Double
        let worker_claims: Group
        /// The queue alone as the workers use it (claim, seed when short, one statement marking the
        /// batch done), without loading journeys.
        let queue_only_claims: Group
        let skip_locked_delete_baseline: Group
    }

    /// Owner connection for setup; claimers connect with `claimerURL`.
    let setup: PostgresClient
    let claimerURL: String
    let configuration: Configuration

    func run(progress: @escaping @Sendable (String) -> Void) async throws -> Result {
        let due = Int((Double(configuration.journeys) * configuration.duePercent / 100).rounded())
        progress("inserting \(configuration.journeys) journey_state rows (\(due) due)")
        let inserted = ContinuousClock.now
        try await insertRows(due: due)
        let insertSeconds = Self.seconds(since: inserted)

        progress("claiming with \(configuration.claimers) WorkerService claimers")
        let workers = try await measureWorkers(due: due)
        progress("claiming with the queue alone (no perform)")
        try await resetLeases()
        let queueOnly = try await measureQueue(due: due)
        progress("claiming with the bare SKIP LOCKED baseline")
        let baseline = try await measureBaseline()
        try await cleanUp()
        func group(_ stats: LatencyStats, duplicates: Int, baseline: LatencyStats?, claims: Int) -> Group {
            Group(
                claims_per_s: stats.seconds > 0 ? Double(claims) / stats.seconds : 0, p50_ms: stats.p50Milliseconds,
                p99_ms: stats.p99Milliseconds, claims: claims, seconds: stats.seconds, duplicates: duplicates,
                ratio_to_baseline: baseline.map { base in
                    let ours = stats.seconds > 0 ? Double(claims) / stats.seconds : 0
                    let theirs = base.seconds > 0 ? Double(due) / base.seconds : 0
                    return theirs > 0 ? ours / theirs : 0
                })
        }
        return Result(
            journeys: configuration.journeys, due: due, claimers: configuration.claimers, batch_size: configuration.batchSize,
            insert_s: insertSeconds,
            worker_claims: group(workers.stats, duplicates: workers.duplicates, baseline: baseline.stats, claims: workers.claims),
            queue_only_claims: group(
                queueOnly.stats, duplicates: queueOnly.duplicates, baseline: baseline.stats,
                claims: queueOnly.claims),
            skip_locked_delete_baseline: group(
                baseline.stats, duplicates: baseline.claims - due, baseline: nil,
                claims: baseline.claims))
    }

    // MARK: - Setup

    private func insertRows(due: Int) async throws {
        let total = configuration.journeys
        try await setup.withConnection { connection in
            let rows = try connection.query(BenchmarkStatements.realJourneyCount)
            guard try rows.first?.decode(0, as: Int.self) == 0 else {
                throw AppError(.invalidInput, "bench claims needs a database without journeys: use the embedded cluster")
            }
            try connection.execute(unsafeSQL: BenchmarkStatements.deleteBenchJourneys)
            try connection.execute(unsafeSQL: BenchmarkStatements.deleteBenchLeases)
            // Due rows: one second ago; the rest due in a day. Same shape as the projection writes.
            try connection.query(BenchmarkStatements.insertBenchJourneys(total: total, due: due))
            try connection.execute(unsafeSQL: BenchmarkStatements.createClaimsBaseline)
            try connection.query(BenchmarkStatements.insertClaimsBaseline(total: total, due: due))
            for vacuum in BenchmarkStatements.vacuumClaimTables { try connection.execute(unsafeSQL: vacuum) }
        }
    }

    private func cleanUp() async throws {
        try await setup.withConnection { connection in
            try connection.execute(unsafeSQL: BenchmarkStatements.cleanUpClaims)
        }
    }

    // MARK: - Workloads

    /// What one claimer measured: items claimed, its loop's seconds, each batch's seconds.
    struct ClaimerRun: Sendable, Codable {
        let claims: Int
        let seconds: Double
        let durations: [Double]
    }

    /// One WorkerService claimer on `pool` until every due item is done (the loop of one
    /// `bench claims-worker` process, or of one task with --in-process).
    static func claimUntilDone(
        pool: PostgresClient, due: Int, batchSize: Int, concurrency: Int,
        workerID: String
    ) async throws -> ClaimerRun {
        let worker = try WorkerService(
            configuration: WorkerService.Configuration(
                pollInterval: .milliseconds(1), batchSize: batchSize, concurrency: concurrency, workerID: workerID),
            journeys: JourneyApp.journeys(on: pool, dependencies: EngineDependencies.development(database: pool)))
        var durations: [Double] = []
        let started = ContinuousClock.now
        while true {
            let batch = ContinuousClock.now
            if try await worker.runOnce() > 0 {
                durations.append(seconds(since: batch))
                continue
            }
            if try await doneCount(pool) >= due { break }
        }
        return ClaimerRun(claims: worker.statistics.claimed, seconds: seconds(since: started), durations: durations)
    }

    private func measureWorkers(due: Int) async throws -> (stats: LatencyStats, claims: Int, duplicates: Int) {
        let started = ContinuousClock.now
        let runs: [ClaimerRun]
        if configuration.inProcess {
            runs = try await withThrowingTaskGroup(of: ClaimerRun.self) { group in
                for index in 0..<configuration.claimers {
                    group.addTask { [configuration, claimerURL] in
                        let pool = try PostgresClient(
                            url: claimerURL, configuration: .init(maxConnections: configuration.concurrency + 1))
                        defer { pool.close() }
                        return try await Self.claimUntilDone(
                            pool: pool, due: due, batchSize: configuration.batchSize,
                            concurrency: configuration.concurrency, workerID: "bench-claimer-\(index)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        } else {
            runs = try await spawnClaimers(due: due)
        }
        // Wall time from the first claim to the last item done (process start-up excluded when
        // the claimers are processes: each reports its own loop, and they run side by side).
        let seconds = configuration.inProcess ? Self.seconds(since: started) : runs.map(\.seconds).max() ?? 0
        let rows = try await setup.query(BenchmarkStatements.duplicateClaimCount)
        let duplicates = try rows.first?.decode(0, as: Int.self) ?? 0
        return (LatencyStats(durations: runs.flatMap(\.durations), seconds: seconds), runs.map(\.claims).reduce(0, +), duplicates)
    }

    /// Runs each claimer as a `journeys-bench claims-worker` process and collects what it printed.
    private func spawnClaimers(due: Int) async throws -> [ClaimerRun] {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        return try await withThrowingTaskGroup(of: ClaimerRun.self) { group in
            for index in 0..<configuration.claimers {
                let command = ShellCommand(
                    executable: executable,
                    arguments: [
                        "claims-worker", "--url", claimerURL, "--due", String(due),
                        "--batch-size", String(configuration.batchSize), "--concurrency", String(configuration.concurrency),
                        "--id", "bench-claimer-\(index)",
                    ])
                group.addTask {
                    let output = try await Self.onThread { try command.run() }
                    guard output.status == 0,
                        let line = output.text.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                        let run = try? JSONDecoder().decode(ClaimerRun.self, from: Data(line.utf8))
                    else {
                        throw AppError(
                            .invalidInput,
                            "claimer process \(index) failed (exit \(output.status)): "
                                + String(output.text.suffix(400)))
                    }
                    return run
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Runs a blocking call (posix_spawn + waitpid) off the cooperative pool.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
        }
    }

    private func resetLeases() async throws {
        try await setup.withConnection { connection in
            try connection.execute(unsafeSQL: BenchmarkStatements.deleteBenchLeases)
            try connection.execute(unsafeSQL: BenchmarkStatements.vacuumLeases)
        }
    }

    private func measureQueue(due: Int) async throws -> (stats: LatencyStats, claims: Int, duplicates: Int) {
        let pools = try (0..<configuration.claimers).map { _ in
            try PostgresClient(url: claimerURL, configuration: .init(maxConnections: 1))
        }
        defer { pools.forEach { $0.close() } }
        let samples = Samples()
        let limit = configuration.batchSize
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, pool) in pools.enumerated() {
                group.addTask {
                    let queue = WorkQueue(database: pool)
                    while true {
                        let batch = ContinuousClock.now
                        let now = Date()
                        let worker = "bench-queue-\(index)"
                        var items = try await queue.claim(
                            worker: worker, now: now, leaseUntil: now.addingTimeInterval(60),
                            limit: limit)
                        if items.count < limit {
                            try await queue.seed(now: now, limit: limit * 10)
                            items += try await queue.claim(
                                worker: worker, now: now, leaseUntil: now.addingTimeInterval(60),
                                limit: limit - items.count)
                        }
                        try await queue.complete(items, outcomes: items.map { _ in "bench" }, now: now)
                        if items.isEmpty {
                            if try await Self.doneCount(pool) >= due { return }
                            continue
                        }
                        samples.claims.add(items.count, ordering: .relaxed)
                        let elapsed = Self.seconds(since: batch)
                        samples.durations.withLock { $0.append(elapsed) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Self.seconds(since: started)
        let rows = try await setup.query(BenchmarkStatements.duplicateClaimCount)
        return (
            LatencyStats(durations: samples.durations.withLock { $0 }, seconds: seconds),
            samples.claims.load(ordering: .relaxed), try rows.first?.decode(0, as: Int.self) ?? 0
        )
    }

    private func measureBaseline() async throws -> (stats: LatencyStats, claims: Int) {
        let pools = try (0..<configuration.claimers).map { _ in
            try PostgresClient(url: claimerURL, configuration: .init(maxConnections: 1))
        }
        defer { pools.forEach { $0.close() } }
        let samples = Samples()
        let limit = configuration.batchSize
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for pool in pools {
                group.addTask {
                    while true {
                        let batch = ContinuousClock.now
                        let rows = try await pool.query(BenchmarkStatements.claimBaseline(limit: limit))
                        if rows.count == 0 { return }
                        samples.claims.add(rows.count, ordering: .relaxed)
                        let elapsed = Self.seconds(since: batch)
                        samples.durations.withLock { $0.append(elapsed) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Self.seconds(since: started)
        return (
            LatencyStats(durations: samples.durations.withLock { $0 }, seconds: seconds), samples.claims.load(ordering: .relaxed)
        )
    }

    /// Batch durations and claim counts shared by the claimers of one workload.
    private final class Samples: Sendable {
        let durations = Mutex<[Double]>([])
        let claims = Atomic<Int>(0)
    }

    private static func doneCount(_ client: PostgresClient) async throws -> Int {
        let rows = try await client.query(BenchmarkStatements.doneClaimCount)
        return try rows.first?.decode(0, as: Int.self) ?? 0
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).seconds
    }
}
