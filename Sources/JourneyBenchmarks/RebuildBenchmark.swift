import EventStore
import Foundation
import JourneyApp
import JourneyDomain
import Postgres
import Projections

/// `journeys-bench rebuild`: rebuilds the journey read models over N generated events with
/// `ProjectionRebuilder`, against a bare read of the same events in global order (the baseline:
/// what the rebuild costs beyond reading the log).
public struct RebuildBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Events to generate. Default 1,000,000.
        public var events = 1_000_000
        /// Events per rebuild batch (one transaction). Default: the rebuilder's.
        public var batchSize = ProjectionRebuilder.defaultBatchSize
        /// Partitions folding at once. Default: the rebuilder's.
        public var parallelism = ProjectionRebuilder.defaultParallelism
        /// Journeys in flight at once in the generated log: their events interleave (each journey's
        /// next event after every other one's in its group of this many). 0 (default): each
        /// journey's events are written together.
        public var interleave = 0
        public init() {}
    }

    public struct Result: Sendable, Codable, Equatable {
        public let events: Int
        public let journeys: Int
        public let batch_size: Int
        public let generate_seconds: Double
        public let read_seconds: Double
        public let read_events_per_s: Double
        public let rebuild_seconds: Double
        public let rebuild_events_per_s: Double
        /// Rebuild throughput over bare-read throughput (kept for older readers of the JSON).
        public let ratio_to_read: Double
        public let rows_journey_state: Int
        public let rows_journey_attempts: Int
        /// The same ratio, named after its baseline: both figures come from this run.
        public let ratio_to_bare_read: Double
        public let parallelism: Int
        /// ``Configuration/interleave``: journeys whose events interleave (0: none).
        public let interleave: Int
    }

    public let client: PostgresClient
    public let configuration: Configuration

    /// `client` connects as the schema owner to a database whose log is empty.
    public init(client: PostgresClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
    }

    /// Runs the benchmark; `progress` hears each step, `rebuilt` the rebuild's (done, total) events.
    public func run(
        progress: @escaping @Sendable (String) -> Void = { _ in },
        rebuilt: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Result {
        let existing = try await JourneyApp.eventStore(on: client).eventCount()
        guard existing == 0 else {
            throw AppError(
                .invalidInput,
                "bench rebuild needs a database with an empty log (this one holds \(existing) events): "
                    + "unset DATABASE_URL to use the embedded cluster's journeys_bench database")
        }
        progress("generating \(configuration.events) events")
        let clock = ContinuousClock()
        var generated = (journeys: 0, events: 0)
        let generateTime = try await clock.measure {
            generated = try await History.generate(
                events: configuration.events, interleave: configuration.interleave,
                client: client)
        }
        try await waitUntilReadable()
        progress("reading every event in global order (baseline)")
        var read = 0
        let readTime = try await clock.measure { read = try await readAll() }
        progress("rebuilding journey_state")
        let rebuildTime = try await clock.measure {
            try await ProjectionRebuilder(
                client: client, batchSize: configuration.batchSize,
                parallelism: configuration.parallelism
            ).rebuild { done, total in rebuilt?(done, total) }
        }
        let rows = try await client.query(BenchmarkStatements.readModelRowCounts).first!
        let readRate = Double(read) / max(readTime.seconds, 1e-9)
        let rebuildRate = Double(generated.events) / max(rebuildTime.seconds, 1e-9)
        let ratio = readRate > 0 ? rebuildRate / readRate : 0
        return Result(
            events: generated.events, journeys: generated.journeys, batch_size: configuration.batchSize,
            generate_seconds: generateTime.seconds, read_seconds: readTime.seconds, read_events_per_s: readRate,
            rebuild_seconds: rebuildTime.seconds, rebuild_events_per_s: rebuildRate, ratio_to_read: ratio,
            rows_journey_state: try rows.decode(0), rows_journey_attempts: try rows.decode(1),
            ratio_to_bare_read: ratio, parallelism: configuration.parallelism,
            interleave: configuration.interleave)
    }

    /// Reads the whole log in global order in batches of the rebuild's size, one transaction each.
    private func readAll() async throws -> Int {
        var checkpoint = GlobalCheckpoint.start
        var total = 0
        while true {
            let (count, last) = try await client.transaction { [checkpoint, batchSize = configuration.batchSize] connection in
                let events = try EventStore.readAll(after: checkpoint, limit: batchSize, on: connection)
                return (events.count, events.last?.checkpoint)
            }
            total += count
            guard let last, count == configuration.batchSize else { return total }
            checkpoint = last
        }
    }

    /// Waits (up to a minute) until every generated event is below the MVCC horizon.
    private func waitUntilReadable() async throws {
        let store = JourneyApp.eventStore(on: client)
        for _ in 0..<2400 {
            if try await store.readableEventCount() == store.eventCount() { return }
            try await Task.sleep(for: .milliseconds(25))
        }
    }
}

extension RebuildBenchmark {
    /// Realistic journey histories, generated straight into `events` as the schema owner, fast: a
    /// few template journeys are decided in memory with the domain's own decider (so every event
    /// decodes and folds like a real one), then `INSERT ... SELECT` over `generate_series` copies
    /// them per journey with fresh ids, one transaction per chunk (so the global order spans many
    /// transaction ids). Hashes are per-event digests, not a chain: the database is a throwaway.
    enum History {
        /// A template journey's events as (type, JSON with the placeholder id).
        struct Template {
            let events: [(type: String, data: String)]
        }

        static let placeholder = "00000000-0000-4000-8000-00000000cafe"

        /// Template mix per 10 journeys: 5 approved at once, 2 approved after a retry, 1 expired and
        /// abandoned, 2 still in progress.
        static func templates() throws -> [Template] {
            let id = JourneyID(placeholder)
            let approved = try decide(Self.approved(id))
            let retried = try decide(Self.retried(id))
            let expired = try decide(Self.expired(id))
            let inProgress = try decide(Array(Self.approved(id).prefix(3)))
            return [approved, approved, approved, approved, approved, retried, retried, expired, inProgress, inProgress]
        }

        /// Inserts journeys until at least `events` events exist, groups of `interleave` journeys
        /// with their events interleaved (0: each journey's together); returns (journeys, events).
        static func generate(
            events target: Int, interleave: Int = 0, client: PostgresClient,
            progress: @Sendable (Int) -> Void = { _ in }
        ) async throws -> (journeys: Int, events: Int) {
            let templates = try templates()
            let perRound = templates.reduce(0) { $0 + $1.events.count }
            var slots: [Int] = [], sequences: [Int] = [], types: [String] = [], datas: [String] = []
            for (slot, template) in templates.enumerated() {
                for (index, event) in template.events.enumerated() {
                    slots.append(slot); sequences.append(index + 1); types.append(event.type); datas.append(event.data)
                }
            }
            let rounds = (target + perRound - 1) / perRound
            let journeys = rounds * templates.count
            let chunk = interleave > 0 ? interleave : max(1, 20_000 / perRound) * templates.count
            let longest = templates.map(\.events.count).max() ?? 0
            let run = UUID().uuidString.lowercased()
            var done = 0
            var first = 0
            while first < journeys {
                let last = min(journeys, first + chunk) - 1
                if interleave > 0 {
                    for sequence in 1...max(1, longest) {
                        done += try await client.query(
                            BenchmarkStatements.insertHistoryStep(
                                first: first, last: last, sequence: sequence, run: run, placeholder: placeholder,
                                templateCount: templates.count, slots: slots, sequences: sequences, types: types,
                                datas: datas)
                        ).affectedRows
                    }
                } else {
                    done += try await client.query(
                        BenchmarkStatements.insertHistory(
                            first: first, last: last, run: run, placeholder: placeholder, templateCount: templates.count,
                            slots: slots, sequences: sequences, types: types, datas: datas)
                    ).affectedRows
                }
                first = last + 1
                progress(done)
            }
            try await client.withConnection { try $0.execute(unsafeSQL: "VACUUM ANALYZE events") }
            return (journeys, done)
        }

        private static func decide(_ commands: [JourneyCommand]) throws -> Template {
            var state = Journey.initialState
            var now = Date(timeIntervalSince1970: 1_795_000_000)
            var events: [(String, String)] = []
            for command in commands {
                let decided = try Journey.decide(command, state: state, now: now, randomUnit: 0.5)
                state = Journey.fold(decided, from: state)
                for event in decided {
                    let encoded = try event.encoded()
                    events.append((encoded.type, String(decoding: encoded.data, as: UTF8.self)))
                }
                now = now.addingTimeInterval(7.25)
            }
            return Template(events: events)
        }

        private static func sealed(_ bytes: Int) -> SealedField {
            SealedField(
                ciphertext: Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).base64EncodedString(),
                keyID: "dk-0193a5e2-7c1d-7b3e-9f00-5b1f2a3c4d5e")
        }

        private static func start(_ id: JourneyID) -> JourneyCommand {
            .start(
                StartJourney(
                    journeyID: id, environment: .prod, flow: Flow("humantoken"), purpose: .creditProcess,
                    subject: SealedSubject(
                        reference: SubjectReference("sr-" + id.rawValue), documentType: .brCPF,
                        documentNumber: sealed(39), name: sealed(48), friendlyName: sealed(36)),
                    clientReference: "order-" + id.rawValue))
        }

        private static func created(_ id: JourneyID, attempt: Int) -> JourneyCommand {
            .recordProcessCreated(
                ProcessCreation(
                    attempt: attempt, processID: ProcessID("\(id.rawValue)-p\(attempt)"),
                    webAppToken: sealed(180), processToken: sealed(64), link: sealed(90),
                    tokenExpiresAt: nil))
        }

        private static func approved(_ id: JourneyID) -> [JourneyCommand] {
            [
                start(id), created(id, attempt: 1), .issueToken, .recordCaptureOpened(attempt: 1),
                .recordCallback(attempt: 1, outcome: .success(processID: ProcessID("\(id.rawValue)-p1"))),
                .recordResult(
                    attempt: 1,
                    snapshot: ProcessSnapshot(
                        state: .finished, result: .ok, humanToken: sealed(120),
                        finishedAt: Date(timeIntervalSince1970: 1_795_000_040))),
            ]
        }

        private static func retried(_ id: JourneyID) -> [JourneyCommand] {
            [
                start(id), created(id, attempt: 1), .issueToken, .recordCaptureOpened(attempt: 1),
                .recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), .issueToken,
                created(id, attempt: 2), .issueToken, .recordCaptureOpened(attempt: 2),
                .recordCallback(attempt: 2, outcome: .success(processID: ProcessID("\(id.rawValue)-p2"))),
                .recordResult(
                    attempt: 2,
                    snapshot: ProcessSnapshot(
                        state: .finished, result: .ok, humanToken: sealed(120),
                        finishedAt: Date(timeIntervalSince1970: 1_795_000_090))),
            ]
        }

        private static func expired(_ id: JourneyID) -> [JourneyCommand] {
            [
                start(id), created(id, attempt: 1), .issueToken,
                .abandon(reason: .requested("bench: the user gave up")),
            ]
        }
    }
}
