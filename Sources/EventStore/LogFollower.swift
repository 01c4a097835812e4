import Postgres
import Synchronization

/// Follows the log in its gap-safe global order (see ``EventStore``) from a checkpoint and hands
/// each batch to a handler: the one way to read the log as it grows.
///
/// ```swift
/// let follower = LogFollower(client: owner, checkpoint: .stored(name: "journey_state")) { events, connection in
///     try apply(events, on: connection)   // commits with the new checkpoint
/// }
/// try await follower.run()   // until cancelled
/// ```
///
/// ## Wake-up and truth
/// LISTEN on ``EventStore/notificationChannel`` only wakes the follower early; every batch is
/// read from the database after the checkpoint, and the follower polls every `pollInterval`, so
/// a lost notification (reconnect, server restart) delays delivery by one interval at most. A
/// notification whose events are not readable yet (an older transaction anywhere in the cluster
/// still holds the readable horizon) is read again every 50 ms for up to 2 s, since the
/// transaction holding the horizon may end without a notice of its own.
///
/// ## Checkpoints
/// - `.stored(name:)`: each batch is one transaction that locks the named ``CheckpointStore`` row
///   (a batch finding it held by another follower is `busy`), reads after it, runs the handler on
///   the same connection and stores the new checkpoint: the handler's writes and the checkpoint
///   commit together, and one follower per name works at a time. Connect as the schema owner.
///   The lock gives the batch a transaction id, which holds the cluster's MVCC horizon back
///   while it runs: keep batches short.
/// - `.after(_:)`: kept in memory, starting after the given checkpoint, for readers with nothing
///   to commit (`journeys events tail --follow`). One batch at a time.
///
/// ## Errors
/// Connection errors and pool timeouts are retried at the next poll; any other error (the
/// handler's, an event that does not decode) ends `run()`: the follower stalls at the offending
/// checkpoint instead of skipping the event.
public final class LogFollower: Sendable {
    public struct Configuration: Sendable {
        /// Events per batch (one transaction). Default 500.
        public var batchSize: Int
        /// Longest wait between reads when no notification arrives. Default 500 ms.
        public var pollInterval: Duration
        /// Use LISTEN/NOTIFY as a wake-up. Default true.
        public var listen: Bool
        /// Whether a `.stored` batch's COMMIT waits for its WAL flush. Default true. Off, a batch
        /// is visible as soon as it commits, and a server crash can lose the last batches (about
        /// 3 x `wal_writer_delay`) together with their checkpoint, which are then handled again:
        /// right for handlers that only derive rows from the log.
        public var synchronousCommit: Bool
        /// Runs after each non-empty batch committed (or, `.after`, was handled), off the
        /// connection, with the batch's events.
        public var afterCommit: (@Sendable ([RecordedEvent]) -> Void)?

        public init(
            batchSize: Int = 500, pollInterval: Duration = .milliseconds(500), listen: Bool = true,
            synchronousCommit: Bool = true, afterCommit: (@Sendable ([RecordedEvent]) -> Void)? = nil
        ) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.listen = listen
            self.synchronousCommit = synchronousCommit
            self.afterCommit = afterCommit
        }
    }

    /// Where the follower keeps its checkpoint.
    public enum Checkpoint: Sendable, Equatable {
        /// The named row of the checkpoint store, advanced in each batch's transaction.
        case stored(name: String)
        /// In memory, starting after this checkpoint.
        case after(GlobalCheckpoint)
    }

    /// What one batch did.
    public enum BatchResult: Sendable, Equatable {
        /// Handed this many events to the handler (0: nothing readable after the checkpoint).
        case applied(Int)
        /// Another follower holds the stored checkpoint.
        case busy
    }

    /// Runs once per non-empty batch, in global order, on the batch's connection (inside its
    /// transaction for a stored checkpoint). Throwing rolls the batch back and ends `run()`.
    public typealias Handler = @Sendable (_ events: [RecordedEvent], _ connection: PostgresConnection) throws -> Void
    /// A ``Handler`` that reads what it needs on the connection and returns its writes instead of
    /// running them: a `.stored` batch sends them with the checkpoint and COMMIT in one pipeline
    /// (one round trip; a failing one rolls the batch back). Unstored, they run one by one.
    public typealias PipelinedHandler =
        @Sendable (_ events: [RecordedEvent], _ connection: PostgresConnection) throws
        -> [PostgresQuery]

    public let client: PostgresClient
    public let checkpoint: Checkpoint
    public let configuration: Configuration
    private let handler: PipelinedHandler
    /// The in-memory checkpoint of `.after`.
    private let position: Mutex<GlobalCheckpoint>

    public convenience init(
        client: PostgresClient, checkpoint: Checkpoint, configuration: Configuration = Configuration(),
        handler: @escaping Handler
    ) {
        self.init(
            client: client, checkpoint: checkpoint, configuration: configuration,
            handling: { events, connection in
                try handler(events, connection)
                return []
            })
    }

    /// A follower whose handler returns its writes (see ``PipelinedHandler``).
    public static func pipelined(
        client: PostgresClient, checkpoint: Checkpoint, configuration: Configuration = Configuration(),
        handler: @escaping PipelinedHandler
    ) -> LogFollower {
        LogFollower(client: client, checkpoint: checkpoint, configuration: configuration, handling: handler)
    }

    private init(
        client: PostgresClient, checkpoint: Checkpoint, configuration: Configuration,
        handling handler: @escaping PipelinedHandler
    ) {
        self.client = client
        self.checkpoint = checkpoint
        self.configuration = configuration
        self.handler = handler
        if case .after(let start) = checkpoint {
            position = Mutex(start)
        } else {
            position = Mutex(.start)
        }
    }

    /// Reads one batch after the checkpoint and hands it to the handler.
    public func runBatch(limit: Int? = nil) async throws -> BatchResult {
        let handler = self.handler
        let (result, events) = try await runPipelinedBatch(limit: limit) { events, connection in
            (events, try handler(events, connection))
        }
        if let events, let afterCommit = configuration.afterCommit { afterCommit(events) }
        return result
    }

    /// `runBatch` with `body` in place of the handler, also returning what `body` returned (nil
    /// when it did not run: nothing to read, or busy).
    public func runBatch<Output: Sendable>(
        limit: Int? = nil, _ body: @escaping @Sendable ([RecordedEvent], PostgresConnection) throws -> Output
    ) async throws -> (result: BatchResult, output: Output?) {
        try await runPipelinedBatch(limit: limit) { events, connection in (try body(events, connection), []) }
    }

    /// `runBatch` with a body that also returns writes (see ``PipelinedHandler``).
    ///
    /// A `.stored` batch takes four round trips whatever the handler writes: BEGIN, commit mode
    /// and checkpoint lock in one pipeline; the read; the handler's own reads (the journey
    /// projection: one); its writes, the checkpoint and COMMIT in one pipeline.
    func runPipelinedBatch<Output: Sendable>(
        limit: Int?, _ body: @escaping @Sendable ([RecordedEvent], PostgresConnection) throws -> (Output, [PostgresQuery])
    ) async throws -> (result: BatchResult, output: Output?) {
        let limit = limit ?? configuration.batchSize
        switch checkpoint {
        case .stored(let name):
            let synchronous = configuration.synchronousCommit
            return try await client.withConnection { connection in
                do {
                    return try Self.storedBatch(name, limit: limit, synchronous: synchronous, on: connection, body)
                } catch {
                    if connection.isUsable, connection.isInTransaction {
                        try? connection.execute(unsafeSQL: EventStoreStatements.rollbackBatch)
                    }
                    throw error
                }
            }
        case .after:
            let start = position.withLock { $0 }
            let (events, output) = try await client.withConnection { connection -> ([RecordedEvent], Output?) in
                let events = try EventStore.readAll(after: start, limit: limit, on: connection)
                guard !events.isEmpty else { return (events, nil) }
                let (output, writes) = try body(events, connection)
                for write in writes { try connection.query(write) }
                return (events, output)
            }
            if let last = events.last { position.withLock { $0 = last.checkpoint } }
            return (.applied(events.count), output)
        }
    }

    /// One `.stored` batch transaction on `connection`; the caller rolls back when it throws.
    private static func storedBatch<Output>(
        _ name: String, limit: Int, synchronous: Bool, on connection: PostgresConnection,
        _ body: ([RecordedEvent], PostgresConnection) throws -> (Output, [PostgresQuery])
    ) throws -> (result: BatchResult, output: Output?) {
        // Without the flush wait from the start: the checkpoint's row lock draws a transaction id,
        // so even a batch that reads nothing commits a record.
        let opening = try run(EventStoreStatements.openBatch(name, synchronousCommit: synchronous), on: connection)
        guard let row = opening.last?.first else {
            try connection.execute(unsafeSQL: EventStoreStatements.commitBatch)
            return (.busy, nil)
        }
        let checkpoint = GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
        let events = try EventStore.readAll(after: checkpoint, limit: limit, on: connection)
        guard let last = events.last else {
            try connection.execute(unsafeSQL: EventStoreStatements.commitBatch)
            return (.applied(0), nil)
        }
        let (output, writes) = try body(events, connection)
        _ = try run(writes + EventStoreStatements.closeBatch(name, last.checkpoint), on: connection)
        return (.applied(events.count), output)
    }

    /// Sends `statements` in one pipeline; throws the first failure.
    private static func run(_ statements: [PostgresQuery], on connection: PostgresConnection) throws -> [PostgresRows] {
        try connection.pipeline(statements).map { try $0.get() }
    }

    /// Runs batches until nothing is left to read; returns the number of events handled (stops
    /// early, with what it handled so far, when another follower holds the checkpoint).
    @discardableResult
    public func catchUp() async throws -> Int {
        var total = 0
        while case .applied(let count) = try await runBatch() {
            total += count
            if count < configuration.batchSize { break }
        }
        return total
    }

    /// Follows the log until the task is cancelled.
    public func run() async throws {
        let doorbell = Doorbell()
        try await withThrowingTaskGroup(of: Void.self) { group in
            if configuration.listen {
                let listener = PostgresListener(client.listenDatabase, channels: [EventStore.notificationChannel])
                group.addTask { await listener.run { _ in doorbell.ring() } }
            }
            group.addTask { try await self.follow(doorbell) }
            try await group.next()
            group.cancelAll()
        }
    }

    private func follow(_ doorbell: Doorbell) async throws {
        // Tries left to read the events of the last notification, when a batch found none readable.
        var unreadNotice = 0
        while !Task.isCancelled {
            var applied: Int?
            do {
                if case .applied(let count) = try await runBatch() {
                    applied = count
                    if count == configuration.batchSize { continue }
                }
            } catch let error as PostgresError where error.isConnectionError || error.code == .poolTimeout {
                // Retried at the next poll.
            }
            // A notification whose events were not readable yet (an older transaction, anywhere in
            // the cluster, still held the readable horizon) is read again shortly, not at the next
            // poll: the transaction holding the horizon may append nothing, so no notice would come.
            // Events read: a few more quick reads for those the horizon held behind them.
            if let applied { unreadNotice = max((applied == 0 ? unreadNotice : min(unreadNotice, 4)) - 1, 0) }
            let wait = unreadNotice > 0 ? min(configuration.pollInterval, Self.horizonRetryInterval) : configuration.pollInterval
            if await doorbell.wait(upTo: wait) { unreadNotice = Self.horizonRetries }
        }
    }

    /// How often, and how many times, a notification's events are read again while the readable
    /// horizon holds them back: every 50 ms for up to 2 s.
    static let horizonRetryInterval = Duration.milliseconds(50)
    static let horizonRetries = 40
}
