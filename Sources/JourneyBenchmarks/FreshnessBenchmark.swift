import EventStore
import Foundation
import JourneyApp
import JourneyDomain
import JourneyEngine
import Postgres
import Projections
import Synchronization

/// `journeys-bench freshness`: how long after an append commits its journey's `journey_state`
/// row shows it, with a live `ProjectionRunner` (LISTEN/NOTIFY wake-up, default batch size),
/// while writers append at half the sustainable rate. The baseline is the append's own
/// latency, measured in the same run.
public struct FreshnessBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Concurrent writers. Default 4.
        public var writers = 4
        /// Seconds spent finding the sustainable append rate. Default 3.
        public var probeSeconds = 3.0
        /// Seconds of paced appends at half that rate. Default 10.
        public var seconds = 10.0
        /// Delay between visibility polls, in seconds. Default 0.001.
        public var pollInterval = 0.001
        public init() {}
    }

    public struct Result: Sendable, Codable, Equatable {
        public let writers: Int
        public let sustainable_appends_per_s: Double
        public let target_appends_per_s: Double
        public let achieved_appends_per_s: Double
        public let samples: Int
        public let p50_ms: Double
        public let p99_ms: Double
        public let max_ms: Double
        /// Append (commit) latency at the paced rate: the baseline.
        public let append_p50_ms: Double
        public let append_p99_ms: Double
        public let ratio_p50_to_append_p50: Double
        public let poll_interval_ms: Double
        /// Where the time goes, from the same appends: commit -> the runner folded the event
        /// (inside its batch transaction: wake-up, batch start, read, load and fold; its writes
        /// go out after, in one pipeline with the checkpoint and COMMIT) ...
        public let applied_p50_ms: Double
        public let applied_p99_ms: Double
        /// ... -> the runner's batch COMMIT returned (the row is visible from then on; the rest
        /// of `p99_ms` is this benchmark's polling).
        public let runner_commit_p50_ms: Double
        public let runner_commit_p99_ms: Double
        /// What else ran on the server during the timed part (it starts after a VACUUM ANALYZE of
        /// the tables it writes): checkpoints, autovacuum/autoanalyze runs over the database's
        /// tables, WAL full-page images (many right after a checkpoint), and the host's 1-minute
        /// load average at the end (above the 2 cores' count: other work took CPU from the run).
        public var checkpoints_during_run = 0
        public var autovacuums_during_run = 0
        public var wal_fpi_during_run = 0
        public var load_average_1m = 0.0
    }

    public let client: PostgresClient
    public let configuration: Configuration

    /// `client` connects as the schema owner (the runner writes the read models).
    public init(client: PostgresClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
    }

    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let tracker = Tracker()
        var settings = ProjectionRunner.Configuration()
        settings.afterEachEvent = { event in tracker.reached(event, applied: true) }
        settings.afterCommit = { events in events.forEach { tracker.reached($0, applied: false) } }
        let runner = ProjectionRunner(client: client, configuration: settings)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await runner.run(); return nil
            }
            group.addTask {
                progress("finding the sustainable append rate (\(configuration.probeSeconds) s)")
                let probe = try await appendFlat(seconds: configuration.probeSeconds)
                try await waitForCatchUp()
                let target = probe / 2
                progress("vacuuming and analyzing the written tables")
                try await vacuumWrittenTables()
                let before = try await disturbances()
                progress(String(format: "appending at %.0f/s for %.0f s with a live runner", target, configuration.seconds))
                var result = try await measure(rate: target, sustainable: probe, tracker: tracker)
                let after = try await disturbances()
                result.checkpoints_during_run = after.checkpoints - before.checkpoints
                result.autovacuums_during_run = after.autovacuums - before.autovacuums
                result.wal_fpi_during_run = after.fullPageImages - before.fullPageImages
                result.load_average_1m = Self.loadAverage() ?? 0
                return result
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            throw AppError(.invalidInput, "the projection runner stopped")
        }
    }

    /// Appends journey starts as fast as the writers go; returns appends per second.
    private func appendFlat(seconds: Double) async throws -> Double {
        let store = JourneyApp.eventStore(on: client)
        let repository = JourneyCommandRunner(events: store)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let started = ContinuousClock.now
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<configuration.writers {
                group.addTask {
                    var n = 0
                    while ContinuousClock.now < deadline {
                        let id = Self.newID()
                        _ = try await repository.execute(Self.start(id), journey: id, metadata: EventMetadata(actor: "bench"))
                        store.notifyAppended()
                        n += 1
                    }
                    return n
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(count) / (ContinuousClock.now - started).seconds
    }

    /// Paced appends at `rate`, each followed until its row shows it.
    private func measure(rate: Double, sustainable: Double, tracker: Tracker) async throws -> Result {
        let store = JourneyApp.eventStore(on: client)
        let repository = JourneyCommandRunner(events: store)
        let writers = configuration.writers
        let interval = Double(writers) / max(rate, 1)
        let started = ContinuousClock.now
        let end = started + .seconds(configuration.seconds)
        let poll = configuration.pollInterval
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var i = 0
                    while true {
                        let due = started + .seconds((Double(i) + Double(writer) / Double(writers)) * interval)
                        guard due < end else { return }
                        try await Task.sleep(until: due, clock: .continuous)
                        let id = Self.newID()
                        let begin = ContinuousClock.now
                        let outcome = try await repository.execute(
                            Self.start(id), journey: id, metadata: EventMetadata(actor: "bench"))
                        let committed = ContinuousClock.now
                        store.notifyAppended()
                        tracker.appends.withLock { $0.append((committed - begin).seconds) }
                        tracker.pending.withLock { $0[id.rawValue] = (Int(outcome.version), committed) }
                        i += 1
                    }
                }
            }
            group.addTask {
                let drainDeadline = end + .seconds(30)
                while ContinuousClock.now < drainDeadline {
                    let waiting = tracker.pending.withLock { Array($0.keys) }
                    if waiting.isEmpty, ContinuousClock.now > end { return }
                    if !waiting.isEmpty {
                        let rows = try await client.query(BenchmarkStatements.projectedVersions(ids: waiting))
                        let seen = ContinuousClock.now
                        for row in rows {
                            let id: String = try row.decode(0)
                            let version: Int = try row.decode(1)
                            let done = tracker.pending.withLock { map -> ContinuousClock.Instant? in
                                guard let entry = map[id], version >= entry.version else { return nil }
                                map[id] = nil
                                return entry.committed
                            }
                            if let done { tracker.visible.withLock { $0.append((seen - done).seconds) } }
                        }
                    }
                    try await Task.sleep(for: .seconds(poll))
                }
            }
            try await group.waitForAll()
        }
        let elapsed = (end - started).seconds
        let freshness = LatencyStats(durations: tracker.visible.withLock { $0 }, seconds: elapsed)
        let appendStats = LatencyStats(durations: tracker.appends.withLock { $0 }, seconds: elapsed)
        let applied = LatencyStats(durations: tracker.applied.withLock { $0 }, seconds: elapsed)
        let runnerCommitted = LatencyStats(durations: tracker.runnerCommitted.withLock { $0 }, seconds: elapsed)
        return Result(
            writers: writers, sustainable_appends_per_s: sustainable, target_appends_per_s: rate,
            achieved_appends_per_s: appendStats.perSecond, samples: freshness.operations,
            p50_ms: freshness.p50Milliseconds, p99_ms: freshness.p99Milliseconds,
            max_ms: (tracker.visible.withLock { $0.max() } ?? 0) * 1000,
            append_p50_ms: appendStats.p50Milliseconds, append_p99_ms: appendStats.p99Milliseconds,
            ratio_p50_to_append_p50: appendStats.p50Milliseconds > 0
                ? freshness.p50Milliseconds / appendStats.p50Milliseconds : 0,
            poll_interval_ms: poll * 1000,
            applied_p50_ms: applied.p50Milliseconds, applied_p99_ms: applied.p99Milliseconds,
            runner_commit_p50_ms: runnerCommitted.p50Milliseconds, runner_commit_p99_ms: runnerCommitted.p99Milliseconds)
    }

    /// The probe's burst leaves dead rows and stale statistics: without this, autovacuum and
    /// autoanalyze of them start inside the timed part, on the same cores.
    private func vacuumWrittenTables() async throws {
        try await client.withConnection { connection in
            for vacuum in FreshnessBenchmarkStatements.vacuumWrittenTables { try connection.execute(unsafeSQL: vacuum) }
        }
    }

    /// The server's counters that tell a disturbed run (see ``Result``).
    private func disturbances() async throws -> (checkpoints: Int, autovacuums: Int, fullPageImages: Int) {
        try await client.withConnection { connection in
            _ = try connection.query(FreshnessBenchmarkStatements.clearStatsSnapshot)
            guard let row = try connection.query(FreshnessBenchmarkStatements.disturbances).first else { return (0, 0, 0) }
            return (try row.decode(0), try row.decode(1), try row.decode(2))
        }
    }

    /// The host's 1-minute load average (`/proc/loadavg`), nil where there is none.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// Waits (up to a minute) until the projection has no readable event left to apply.
    private func waitForCatchUp() async throws {
        for _ in 0..<600 {
            if try await ProjectionStatus.read(name: JourneyStateProjection.name, client: client)?.lagEvents == 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func newID() -> JourneyID { JourneyID(UUID.v7().uuidString.lowercased()) }

    static func start(_ id: JourneyID) -> JourneyCommand {
        let sealed = SealedField(ciphertext: Data(repeating: 7, count: 48).base64EncodedString(), keyID: "dk-bench")
        return .start(
            StartJourney(
                journeyID: id, environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
                subject: SealedSubject(reference: SubjectReference("sr-bench"), documentType: .brCPF, documentNumber: sealed),
                clientReference: "bench"))
    }
}

/// The measurements shared by the writers and the poller.
private final class Tracker: Sendable {
    let pending = Mutex<[String: (version: Int, committed: ContinuousClock.Instant)]>([:])
    let visible = Mutex<[Double]>([])
    let appends = Mutex<[Double]>([])
    let applied = Mutex<[Double]>([])
    let runnerCommitted = Mutex<[Double]>([])

    /// Records the time from the commit of a pending append to now, when `event` is that append's
    /// last event: in `applied`, else in `runnerCommitted`.
    func reached(_ event: RecordedEvent, applied inBatch: Bool) {
        let now = ContinuousClock.now
        let id = event.streamName.journeyID ?? event.streamName.rawValue
        guard
            let committed = pending.withLock({ map -> ContinuousClock.Instant? in
                guard let entry = map[id], entry.version == Int(event.streamVersion) else { return nil }
                return entry.committed
            })
        else { return }
        let seconds = (now - committed).seconds
        if inBatch { applied.withLock { $0.append(seconds) } } else { runnerCommitted.withLock { $0.append(seconds) } }
    }
}
