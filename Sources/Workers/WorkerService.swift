import Foundation
import JourneyDomain
import JourneyEngine
import Observability
import Postgres
import Synchronization

/// Claims due work and performs it until cancelled: token expiry, retries (allowed for SDK
/// journeys, fresh processes for link journeys), abandonment of absent users,
/// reconciliation of unanswered Create Process intents and result fetching.
///
/// Any number of workers may run against one database, in one process or many; none leads.
/// Each poll copies due items from `journey_state` into `work_leases`, claims a batch with
/// `FOR UPDATE SKIP LOCKED` and a lease, performs it (at most `concurrency` at once) and marks
/// each item done or postpones it. A heartbeat renews the leases of items in flight; a worker
/// that dies leaves leases that run out, and another worker takes the items over.
public final class WorkerService: Sendable {
    /// Counts since the service was made.
    public struct Statistics: Sendable, Equatable {
        public var claimed = 0
        public var done = 0
        public var postponed = 0
        public var failed = 0
        /// Done items by outcome (`expired`, `process_created`, `stale`, ...).
        public var outcomes: [String: Int] = [:]
    }

    public let configuration: Configuration
    public let queue: WorkQueue
    public let performer: DuePerformer
    let clock: @Sendable () -> Date
    let metrics: MetricsRegistry?
    /// The configured logger with this worker's id.
    let logger: Logger
    private let counts = Mutex(Statistics())

    /// Performs items with the process's `journeys` (over the `journeys_app` pool); decision and
    /// lease times come from its dependencies' clock.
    public init(
        configuration: Configuration = Configuration(), journeys: Journeys, metrics: MetricsRegistry? = nil
    ) throws {
        let dependencies = journeys.dependencies
        try configuration.validate()
        // A Unico call must end before another worker may act on the same intent or item.
        for client in dependencies.allUnicoClients {
            let timeout = client.configuration.requestTimeout
            guard timeout < configuration.leaseDuration, timeout < JourneyTiming.processCreationGrace else {
                throw WorkerError(
                    .invalidConfiguration,
                    "the Unico request timeout (\(timeout) s) must be shorter than "
                        + "leaseDuration (\(configuration.leaseDuration) s) and the \(JourneyTiming.processCreationGrace) s "
                        + "grace of a Create Process intent")
            }
        }
        self.configuration = configuration
        self.queue = WorkQueue(database: journeys.database)
        self.performer = DuePerformer(journeys: journeys, configuration: configuration.performer)
        self.clock = dependencies.clock
        self.metrics = metrics
        var logger = configuration.logger
        logger.metadata["worker_id"] = configuration.workerID
        self.logger = logger
    }

    /// What this service did so far.
    public var statistics: Statistics { counts.withLock { $0 } }

    /// Polls until cancelled. Database failures (a restart) are retried at the next poll.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: configuration.heartbeatInterval)
                    _ = try? await queue.renew(
                        worker: configuration.workerID,
                        leaseUntil: clock().addingTimeInterval(configuration.leaseDuration))
                }
            }
            group.addTask { [self] in
                var polls = 0
                while !Task.isCancelled {
                    polls += 1
                    var performed = 0
                    do {
                        performed = try await runOnce()
                    } catch {
                        logger.warning("worker poll failed", metadata: ["error": String(describing: type(of: error))])
                    }
                    if polls % 100 == 1 {
                        _ = try? await queue.purge(finishedBefore: clock().addingTimeInterval(-configuration.doneRetention))
                    }
                    if performed < configuration.batchSize {
                        try? await Task.sleep(for: configuration.pollInterval)
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// One poll: claims a batch (copying due items from `journey_state` first when fewer are
    /// waiting), performs it and marks the finished items done in one statement; returns the
    /// number claimed.
    @discardableResult
    public func runOnce() async throws -> Int {
        var now = clock()
        var items = try await claim(now: now)
        if items.count < configuration.batchSize {
            try await queue.seed(now: now, limit: configuration.seedSize)
            now = clock()
            items += try await claim(now: now, limit: configuration.batchSize - items.count)
        }
        counts.withLock { $0.claimed += items.count }
        let done = await withTaskGroup(of: (WorkItem, String?).self) { group in
            var finished: [(WorkItem, String)] = []
            var next = items.makeIterator()
            for _ in 0..<configuration.concurrency {
                guard let item = next.next() else { break }
                group.addTask { (item, await self.handle(item)) }
            }
            while let (item, outcome) = await group.next() {
                if let outcome { finished.append((item, outcome)) }
                if let item = next.next() { group.addTask { (item, await self.handle(item)) } }
            }
            return finished
        }
        do {
            try await queue.complete(done.map(\.0), outcomes: done.map(\.1), now: clock())
            for (_, outcome) in done { count(done: true, outcome: outcome) }
        } catch {
            // Not marked done: the leases run out and the items run again; the domain refuses repeats.
            for _ in done { count(failed: true, outcome: "error") }
        }
        return items.count
    }

    private func claim(now: Date, limit: Int? = nil) async throws -> [WorkItem] {
        try await queue.claim(
            worker: configuration.workerID, now: now,
            leaseUntil: now.addingTimeInterval(configuration.leaseDuration),
            limit: limit ?? configuration.batchSize)
    }

    /// Performs `item`; returns its outcome when it is done for good (the caller marks it done),
    /// nil when it was postponed or failed (the item stays claimable).
    func handle(_ item: WorkItem) async -> String? {
        let result: WorkResult
        do {
            result = try await performer.perform(item)
        } catch {
            logger.warning(
                "work item failed",
                metadata: [
                    "journey_id": item.journeyID.rawValue, "kind": item.kind.rawValue, "attempt": String(item.attempt),
                    "error": String(describing: type(of: error)),
                ])
            // A database failure: postpone if still possible; otherwise the lease runs out.
            let at = clock().addingTimeInterval(configuration.performer.backoff(afterTries: item.tries))
            _ = try? await queue.release(item, worker: configuration.workerID, until: at, outcome: "error")
            count(failed: true, outcome: "error")
            return nil
        }
        switch result {
        case .done(let outcome):
            return outcome
        case .later(let at, let outcome):
            do {
                try await queue.release(item, worker: configuration.workerID, until: at, outcome: outcome)
                count(done: false, outcome: outcome)
            } catch {
                count(failed: true, outcome: "error")
            }
            return nil
        }
    }

    private func count(done: Bool = false, failed: Bool = false, outcome: String) {
        counts.withLock {
            if failed { $0.failed += 1 } else if done { $0.done += 1 } else { $0.postponed += 1 }
            if done { $0.outcomes[outcome, default: 0] += 1 }
        }
        metrics?.increment(
            "worker_items_total", help: "Due items performed by workers, by kind of ending.",
            labels: ["result": failed ? "failed" : done ? "done" : "postponed"])
    }
}
