import EmbeddedPostgres
import Foundation
import Postgres

/// `journeys-bench client`: our PostgreSQL client against `pgbench -M prepared` on the same
/// server, the same clients, a bare INSERT and a point SELECT; and our client with its
/// statement cache off (every statement parsed again, as through PgBouncer); and our client's
/// callers on the pool's loop executor (``PostgresClient/loopExecutor``).
public struct ClientBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Concurrent clients (our pool's connections, pgbench's `-c`). Default 8.
        public var clients = 8
        /// Seconds per workload. Default 5.
        public var seconds = 5.0
        /// Rows in the point SELECT's table. Default 10,000.
        public var lookupRows = 10_000
        /// Where `pgbench` lives; default the embedded cluster's binaries folder.
        public var pgbenchPath: String?
        public init() {}
    }

    /// One statement's figures.
    public struct Group: Sendable, Codable, Equatable {
        public let rows_per_s: Double
        public let p50_ms: Double
        public let p99_ms: Double
        public let pgbench_rows_per_s: Double
        public let pgbench_latency_avg_ms: Double
        public let ratio_to_pgbench: Double
        /// Our client with the statement cache off (unnamed statements, parsed every time).
        public let uncached_rows_per_s: Double
        public let uncached_ratio_to_pgbench: Double
        /// Our client, its callers preferring the pool's loop executor (no wake-up per statement).
        public let loop_executor_rows_per_s: Double
        public let loop_executor_p50_ms: Double
        public let loop_executor_p99_ms: Double
        public let loop_executor_ratio_to_pgbench: Double
        /// Our process's context switches (voluntary + involuntary, `getrusage`) per statement.
        public let switches_per_query: Double
        public let loop_executor_switches_per_query: Double
    }

    public struct Result: Sendable, Codable, Equatable {
        public let clients: Int
        public let seconds_per_workload: Double
        public let insert: Group
        public let select: Group
    }

    /// Workloads per run, for a progress bar over time.
    public static let workloadCount = 8

    public let database: PostgresConfiguration
    public let configuration: Configuration

    public init(database: PostgresConfiguration, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
    }

    /// Runs the eight workloads, `progress` naming each as it starts.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let cached = PostgresClient(database, configuration: .init(maxConnections: configuration.clients))
        defer { cached.close() }
        let uncached = PostgresClient(
            database,
            configuration: .init(
                maxConnections: configuration.clients,
                statementCacheCapacity: 0))
        defer { uncached.close() }
        try await cached.withConnection { [configuration] in
            try $0.execute(unsafeSQL: BenchmarkStatements.createClientTables(lookupRows: configuration.lookupRows))
        }
        let pgbench = try PgBench(
            path: configuration.pgbenchPath ?? EmbeddedPostgres().binDirectory() + "/pgbench",
            database: database, clients: configuration.clients, seconds: configuration.seconds)
        defer { pgbench.cleanUp() }
        let lookupRows = configuration.lookupRows

        progress("bare insert, our client")
        let insertStatement: Operation = { client, keys in
            try await client.query(BenchmarkStatements.clientInsert(key: keys.next(in: 1...1_000_000_000)))
        }
        let insert = try await measure(cached, insertStatement)
        progress("bare insert, our client on its loop executor")
        let insertLoop = try await measure(cached, onLoop: true, insertStatement)
        progress("bare insert, pgbench -M prepared")
        let insertBaseline = try pgbench.run(script: BenchmarkStatements.pgbenchInsertScript)
        progress("bare insert, our client, statement cache off")
        let insertUncached = try await measure(uncached, insertStatement)

        let select: Operation = { client, keys in
            let rows = try await client.query(BenchmarkStatements.clientSelect(key: keys.next(in: 1...lookupRows)))
            _ = try rows.first?.decode(0, as: String.self)
        }
        progress("point SELECT through our client")
        let point = try await measure(cached, select)
        progress("point SELECT through our client on its loop executor")
        let pointLoop = try await measure(cached, onLoop: true, select)
        progress("point SELECT through pgbench -M prepared")
        let pointBaseline = try pgbench.run(script: BenchmarkStatements.pgbenchSelectScript(lookupRows: lookupRows))
        progress("point SELECT through our client, statement cache off")
        let pointUncached = try await measure(uncached, select)

        func group(_ ours: Measured, _ baseline: PgBench.Figures, _ unprepared: Measured, _ onLoop: Measured) -> Group {
            func ratio(_ value: Double) -> Double { baseline.perSecond > 0 ? value / baseline.perSecond : 0 }
            return Group(
                rows_per_s: ours.stats.perSecond, p50_ms: ours.stats.p50Milliseconds, p99_ms: ours.stats.p99Milliseconds,
                pgbench_rows_per_s: baseline.perSecond, pgbench_latency_avg_ms: baseline.latencyMilliseconds,
                ratio_to_pgbench: ratio(ours.stats.perSecond), uncached_rows_per_s: unprepared.stats.perSecond,
                uncached_ratio_to_pgbench: ratio(unprepared.stats.perSecond),
                loop_executor_rows_per_s: onLoop.stats.perSecond, loop_executor_p50_ms: onLoop.stats.p50Milliseconds,
                loop_executor_p99_ms: onLoop.stats.p99Milliseconds, loop_executor_ratio_to_pgbench: ratio(onLoop.stats.perSecond),
                switches_per_query: ours.switchesPerQuery, loop_executor_switches_per_query: onLoop.switchesPerQuery)
        }
        return Result(
            clients: configuration.clients, seconds_per_workload: configuration.seconds,
            insert: group(insert, insertBaseline, insertUncached, insertLoop),
            select: group(point, pointBaseline, pointUncached, pointLoop))
    }

    /// One statement of a workload, drawing its keys from the calling client's generator.
    typealias Operation = @Sendable (PostgresClient, inout ClientKeys) async throws -> Void

    /// One workload's latencies and our process's context switches per statement.
    private struct Measured {
        let stats: LatencyStats
        let switchesPerQuery: Double
    }

    /// Each client loops for the configured time (as a task preferring the pool's loop executor
    /// when `onLoop`); returns all latencies.
    private func measure(
        _ client: PostgresClient, onLoop: Bool = false,
        _ operation: @escaping Operation
    ) async throws -> Measured {
        let executor: (any TaskExecutor)? = onLoop ? client.loopExecutor : nil
        // Open every connection (and prepare) before the clock starts, as pgbench does.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<configuration.clients {
                group.addTask(executorPreference: executor) {
                    var keys = ClientKeys()
                    try await operation(client, &keys)
                }
            }
            try await group.waitForAll()
        }
        let switchesBefore = Self.contextSwitches()
        let started = ContinuousClock.now
        let deadline = started + .seconds(configuration.seconds)
        let durations = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<configuration.clients {
                group.addTask(executorPreference: executor) {
                    var local: [Double] = []
                    local.reserveCapacity(100_000)
                    var keys = ClientKeys()
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        try await operation(client, &keys)
                        local.append((ContinuousClock.now - begin).seconds)
                    }
                    return local
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        let switches = Double(Self.contextSwitches() - switchesBefore)
        return Measured(
            stats: LatencyStats(durations: durations, seconds: (ContinuousClock.now - started).seconds),
            switchesPerQuery: durations.isEmpty ? 0 : switches / Double(durations.count))
    }

    /// Context switches of this process so far, all threads (`getrusage`).
    private static func contextSwitches() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return usage.ru_nvcsw + usage.ru_nivcsw
    }
}

/// A client's keys from a user-space generator (SplitMix64, seeded once from the system's
/// generator), as pgbench's `random()` draws them: no `getrandom` system call per statement.
struct ClientKeys {
    private var state = UInt64.random(in: .min ... .max)

    /// A key uniform in `range` (the modulo bias is negligible for these ranges).
    mutating func next(in range: ClosedRange<Int>) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return range.lowerBound + Int(z % UInt64(range.count))
    }
}
