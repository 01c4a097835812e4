import EventStore
import Foundation
import JourneyApp
import Postgres
import Synchronization

/// `journeys-bench append`: concurrent writers appending with every guarantee on, against a
/// raw INSERT of the same rows into a bare table through the same client (the ceiling) and
/// against Message DB's `write_message` with every stream in one category; each append in its
/// own transaction (the direct path) and group-committed (``EventStore/Grouping``).
public struct AppendBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Concurrent writers. Default 8.
        public var writers = 8
        /// Seconds per workload. Default 5.
        public var seconds = 5.0
        /// Events per append in the batched workload. Default 10.
        public var batchSize = 10
        /// Writers of the grouped workload with many writers (tasks, not connections). Default 64.
        public var manyWriters = 64
        /// Groups in flight at once in the grouped workloads. Default: the store's default.
        public var concurrentGroups = EventStore.Grouping().concurrentGroups
        public init() {}
    }

    /// One workload's figures.
    public struct Group: Sendable, Codable, Equatable {
        public let appends_per_s: Double
        public let events_per_s: Double
        public let p50_ms: Double
        public let p99_ms: Double
        public let ratio_to_ceiling: Double?
    }

    public struct Result: Sendable, Codable, Equatable {
        public let writers: Int
        public let seconds_per_workload: Double
        public let single: Group
        public let single_ceiling: Group
        public let batch: Group
        public let batch_ceiling: Group
        /// The global-order columns (xid8 + index) alone on the bare table, single rows.
        public let single_ceiling_with_order_index: Group
        public let ordering_strategy: String
        /// Message DB's `write_message`, single events, all streams in one category, same writers.
        public let message_db_single: Group
        /// Group commit, same writers as `single` / `batch`; ratios to the same ceilings.
        public let grouped_single: Group
        public let grouped_batch: Group
        /// Group commit with `grouped_writers` concurrent writers, single events.
        public let grouped_single_many_writers: Group
        public let grouped_writers: Int
        public let concurrent_groups: Int
        public let single_ratio_to_message_db: Double
        public let grouped_single_ratio_to_message_db: Double
    }

    public let client: PostgresClient
    public let configuration: Configuration

    public init(client: PostgresClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
    }

    /// Runs the nine workloads, `progress` naming each as it starts.
    public func run(progress: @Sendable (String) -> Void = { _ in }) async throws -> Result {
        try await createCeilingTables()
        let store = JourneyApp.eventStore(on: client, grouping: .off)
        var grouping = EventStore.Grouping()
        grouping.concurrentGroups = configuration.concurrentGroups
        let grouped = JourneyApp.eventStore(on: client, grouping: grouping)
        progress("single-event appends")
        let single = try await measure { writer, n in try await appendEvents(store, writer: writer, n: n, count: 1) }
        progress("single-row raw INSERT (ceiling)")
        let singleCeiling = try await measure { writer, n in
            try await insertRaw(table: "bench_ceiling", writer: writer, n: n, count: 1)
        }
        progress("single-row raw INSERT with the global-order column and index")
        let ordered = try await measure { writer, n in
            try await insertRaw(table: "bench_ceiling_ordered", writer: writer, n: n, count: 1)
        }
        progress("\(configuration.batchSize)-event appends")
        let batch = try await measure { writer, n in
            try await appendEvents(store, writer: writer, n: n, count: configuration.batchSize)
        }
        progress("\(configuration.batchSize)-row raw INSERT (ceiling)")
        let batchCeiling = try await measure { writer, n in
            try await insertRaw(table: "bench_ceiling", writer: writer, n: n, count: configuration.batchSize)
        }
        progress("Message DB write_message, one category")
        let messageDB = try await measure { writer, n in try await writeMessage(writer: writer, n: n) }
        progress("group-committed single-event appends")
        let groupedSingle = try await measure { writer, n in
            try await appendEvents(grouped, writer: writer, n: n, count: 1, label: "g")
        }
        progress("group-committed \(configuration.batchSize)-event appends")
        let groupedBatch = try await measure { writer, n in
            try await appendEvents(grouped, writer: writer, n: n, count: configuration.batchSize, label: "g")
        }
        progress("group-committed single-event appends, \(configuration.manyWriters) writers")
        let groupedMany = try await measure(writers: configuration.manyWriters) { writer, n in
            try await appendEvents(grouped, writer: writer, n: n, count: 1, label: "m")
        }
        func group(_ stats: LatencyStats, events: Int, ceiling: LatencyStats?) -> Group {
            Group(
                appends_per_s: stats.perSecond, events_per_s: stats.perSecond * Double(events),
                p50_ms: stats.p50Milliseconds, p99_ms: stats.p99Milliseconds,
                ratio_to_ceiling: ceiling.map { $0.perSecond > 0 ? stats.perSecond / $0.perSecond : 0 })
        }
        return Result(
            writers: configuration.writers, seconds_per_workload: configuration.seconds,
            single: group(single, events: 1, ceiling: singleCeiling),
            single_ceiling: group(singleCeiling, events: 1, ceiling: nil),
            batch: group(batch, events: configuration.batchSize, ceiling: batchCeiling),
            batch_ceiling: group(batchCeiling, events: configuration.batchSize, ceiling: nil),
            single_ceiling_with_order_index: group(ordered, events: 1, ceiling: singleCeiling),
            ordering_strategy: "MVCC horizon: (xid8, position) below pg_snapshot_xmin",
            message_db_single: group(messageDB, events: 1, ceiling: singleCeiling),
            grouped_single: group(groupedSingle, events: 1, ceiling: singleCeiling),
            grouped_batch: group(groupedBatch, events: configuration.batchSize, ceiling: batchCeiling),
            grouped_single_many_writers: group(groupedMany, events: 1, ceiling: singleCeiling),
            grouped_writers: configuration.manyWriters, concurrent_groups: configuration.concurrentGroups,
            single_ratio_to_message_db: messageDB.perSecond > 0 ? single.perSecond / messageDB.perSecond : 0,
            grouped_single_ratio_to_message_db: messageDB.perSecond > 0 ? groupedSingle.perSecond / messageDB.perSecond : 0)
    }

    /// Each writer (`configuration.writers` unless given) loops for the configured time;
    /// returns all latencies.
    private func measure(writers: Int? = nil, _ operation: @escaping @Sendable (Int, Int) async throws -> Void) async throws
        -> LatencyStats
    {
        let started = ContinuousClock.now
        let deadline = started + .seconds(configuration.seconds)
        let durations = try await withThrowingTaskGroup(of: [Double].self) { group in
            for writer in 0..<(writers ?? configuration.writers) {
                group.addTask {
                    var local: [Double] = []
                    var n = 0
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        try await operation(writer, n)
                        local.append((ContinuousClock.now - begin).seconds)
                        n += 1
                    }
                    return local
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        return LatencyStats(durations: durations, seconds: (ContinuousClock.now - started).seconds)
    }

    /// Appends `count` events to the writer's current stream with an exact expected version;
    /// streams roll over every 20 events, like journeys.
    private func appendEvents(_ store: EventStore, writer: Int, n: Int, count: Int, label: String = "d") async throws {
        let perStream = max(1, 20 / count)
        let stream = StreamName("bench-\(UUID.benchRun)-\(label)\(count)-\(writer)-\(n / perStream)")
        let version = Int64((n % perStream) * count)
        let correlation = UUID.v7()
        let events = (0..<count).map { i in
            NewEvent(
                type: "BenchEvent", data: Self.payload(writer: writer, n: n, i: i),
                metadata: EventMetadata(correlationID: correlation, causationID: nil, actor: "bench"))
        }
        try await store.append(events, to: stream, expectedVersion: version == 0 ? .noStream : .exact(version))
    }

    /// One event to the writer's current stream through Message DB's `write_message`; every
    /// stream is in category `benchjourney`, like journeys' streams would be.
    private func writeMessage(writer: Int, n: Int) async throws {
        let stream = "benchjourney-\(UUID.benchRun)\(writer)x\(n / 20)"
        let metadata = JSONB(text: #"{"correlationId": "\#(UUID.v7().uuidString.lowercased())", "actor": "bench"}"#)
        try await client.query(
            AppendBenchmarkStatements.writeMessage(
                id: UUID.v7(), stream: stream, data: Self.payload(writer: writer, n: n, i: 0), metadata: metadata,
                expectedVersion: Int64(n % 20) - 1))
    }

    private func insertRaw(table: String, writer: Int, n: Int, count: Int) async throws {
        let stream = "bench-\(writer)-\(n)"
        let data = (0..<count).map { Self.payload(writer: writer, n: n, i: $0) }
        let ids = (0..<count).map { _ in UUID.v7() }
        try await client.query(BenchmarkStatements.insertCeilingRows(table: table, stream: stream, ids: ids, data: data))
    }

    private func createCeilingTables() async throws {
        try await client.withConnection { connection in
            try connection.execute(unsafeSQL: BenchmarkStatements.createCeilingTables)
            try connection.execute(unsafeSQL: AppendBenchmarkStatements.createMessageDB)
        }
    }

    static func payload(writer: Int, n: Int, i: Int) -> JSONB {
        JSONB(text: #"{"journeyId": "\#(writer)-\#(n)", "attempt": \#(i + 1), "step": "TokenIssued", "environment": "UAT"}"#)
    }
}

extension UUID {
    /// One id per benchmark process, so repeated runs on one database never collide.
    static let benchRun = UUID().uuidString.prefix(8).lowercased()
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double { self / .seconds(1) }
}
