import EventStore
import Foundation
import Postgres

/// Runs a ``Projection`` over the log: a ``LogFollower`` with the projection's stored checkpoint.
///
/// ## Exactly-once effect
/// One batch is one transaction: lock the checkpoint row, read the events after it, apply them,
/// write the new checkpoint, commit. A ``PipelinedProjection`` (the journey projection) sends its
/// writes, the checkpoint and COMMIT in one pipeline: four round trips a batch. A crash or error anywhere rolls back rows and checkpoint
/// together; the next run resumes from the last committed checkpoint.
///
/// ## One active runner per projection
/// The checkpoint row is locked with `FOR UPDATE SKIP LOCKED` inside each batch transaction
/// (see ``EventStore/CheckpointStore``). A runner that finds the row locked applies nothing and
/// waits for its next poll, so two processes never apply the same batch, no dedicated session
/// has to stay open, and a runner that dies frees the row the moment its connection goes away
/// (failover is immediate). A rebuild takes the same row lock while it swaps tables in.
///
/// ## Wake-up
/// NOTIFY on `EventStore.notificationChannel` only wakes the runner early; every batch is read
/// from the database after the stored checkpoint and the runner polls every `pollInterval`.
///
/// ## Failure modes
/// - Connection errors and pool timeouts are retried at the next poll; any other error (an
///   event that does not decode, a bug in the fold) ends `run()` with that error: the projection
///   stalls loudly at the offending checkpoint instead of skipping the event.
/// - The row lock gives each batch transaction a transaction id, which holds the cluster-wide
///   MVCC horizon (see `EventStore`) for the length of the batch: keep batches short.
///
/// ## Privileges
/// The runner writes the read models and checkpoints: it connects as `journeys_projector`
/// (`DATABASE_PROJECTOR_URL`, migration 0017) or the schema owner; `journeys_app` has SELECT only.
public final class ProjectionRunner: Sendable {
    public struct Configuration: Sendable {
        /// Events per batch (one transaction). Default 500.
        public var batchSize: Int
        /// Longest wait between polls, in seconds. Default 0.5 s.
        public var pollInterval: Double
        /// Use LISTEN/NOTIFY as a wake-up. Default true.
        public var listen: Bool
        /// Whether a batch's COMMIT waits for its WAL flush. Default false: the read models are
        /// derived from the log, so a server crash that loses the last batches (with their
        /// checkpoint) only means the runner applies them again; meanwhile no batch, and so no
        /// journey's row, waits for a disk flush to become visible (freshness, issue 15.6).
        public var synchronousCommit: Bool
        /// Runs after each non-empty batch committed, with its events (the freshness benchmark).
        public var afterCommit: (@Sendable ([RecordedEvent]) -> Void)?
        /// Runs for each event of a batch once the projection applied it (a pipelined one: folded
        /// it, its writes not yet sent), inside the batch transaction; throwing rolls the batch
        /// back (for tests that fail a batch mid-way).
        public var afterEachEvent: (@Sendable (RecordedEvent) throws -> Void)?
        public init(
            batchSize: Int = 500, pollInterval: Double = 0.5, listen: Bool = true, synchronousCommit: Bool = false,
            afterEachEvent: (@Sendable (RecordedEvent) throws -> Void)? = nil,
            afterCommit: (@Sendable ([RecordedEvent]) -> Void)? = nil
        ) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.listen = listen
            self.synchronousCommit = synchronousCommit
            self.afterEachEvent = afterEachEvent
            self.afterCommit = afterCommit
        }
    }

    /// What one batch did.
    public typealias BatchResult = LogFollower.BatchResult

    public let client: PostgresClient
    public let configuration: Configuration
    public let projection: any Projection
    public var name: String { projection.name }
    private let follower: LogFollower

    /// `client` must connect as `journeys_projector` (or the schema owner).
    public init(
        client: PostgresClient, projection: any Projection = JourneyStateProjection(),
        configuration: Configuration = Configuration()
    ) {
        self.client = client
        self.configuration = configuration
        self.projection = projection
        let hook = configuration.afterEachEvent
        follower = LogFollower.pipelined(
            client: client, checkpoint: .stored(name: projection.name),
            configuration: .init(
                batchSize: configuration.batchSize, pollInterval: .seconds(configuration.pollInterval),
                listen: configuration.listen, synchronousCommit: configuration.synchronousCommit,
                afterCommit: configuration.afterCommit)
        ) { events, connection in
            // A pipelined projection's writes go out after the hook, with the checkpoint and COMMIT.
            let writes: [PostgresQuery]
            if let pipelined = projection as? any PipelinedProjection {
                writes = try pipelined.writes(for: events, on: connection)
            } else {
                try projection.apply(events, on: connection)
                writes = []
            }
            if let hook { try events.forEach(hook) }
            return writes
        }
    }

    /// Runs one batch transaction.
    public func runBatch(limit: Int? = nil) async throws -> BatchResult {
        try await follower.runBatch(limit: limit)
    }

    /// Applies everything currently readable; returns the number of events applied (stops early,
    /// with what it applied so far, when another runner holds the projection).
    @discardableResult
    public func catchUp() async throws -> Int {
        try await follower.catchUp()
    }

    /// Follows the log until cancelled. Connection errors are retried after `pollInterval`.
    public func run() async throws {
        try await follower.run()
    }
}
