import EventStore
import Foundation
import Postgres
import Synchronization

/// Follows the event store's global order from the projection's stored checkpoint and applies
/// each batch to the journey read models.
///
/// ## Exactly-once effect
/// One batch is one transaction: lock the checkpoint row, read the events after it
/// (`EventStore.readAll(after:limit:on:)`), apply them, write the new checkpoint, commit. A crash
/// or error anywhere rolls back rows and checkpoint together; the next run resumes from the last
/// committed checkpoint.
///
/// ## One active runner per projection
/// Chosen: `SELECT ... FROM projection_checkpoints WHERE name = $1 FOR UPDATE SKIP LOCKED` inside
/// each batch transaction. A runner that finds the row locked applies nothing and waits for its
/// next poll, so two processes never apply the same batch, no dedicated session has to stay
/// open, and a runner that dies frees the row the moment its connection goes away (failover is
/// immediate). A rebuild takes the same row lock while it swaps tables in.
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
/// The runner writes the read models and must connect as the schema owner
/// (`DATABASE_ADMIN_URL`); the application role `journeys_app` has SELECT only.
public final class ProjectionRunner: Sendable {
    public struct Configuration: Sendable {
        /// Events per batch (one transaction). Default 500.
        public var batchSize: Int
        /// Longest wait between polls. Default 0.5 s.
        public var pollInterval: Double
        /// Use LISTEN/NOTIFY as a wake-up. Default true.
        public var listen: Bool
        /// Runs after each applied event inside the batch transaction; throwing rolls the batch
        /// back (for tests that fail a batch mid-way).
        public var afterEachEvent: (@Sendable (RecordedEvent) throws -> Void)?
        public init(batchSize: Int = 500, pollInterval: Double = 0.5, listen: Bool = true,
                    afterEachEvent: (@Sendable (RecordedEvent) throws -> Void)? = nil) {
            self.batchSize = batchSize
            self.pollInterval = pollInterval
            self.listen = listen
            self.afterEachEvent = afterEachEvent
        }
    }

    /// What one batch did.
    public enum BatchResult: Sendable, Equatable {
        /// Applied this many events (0: nothing readable after the checkpoint).
        case applied(Int)
        /// Another runner (or a rebuild) holds the projection.
        case busy
    }

    public let client: PostgresClient
    public let configuration: Configuration
    public let name = JourneyStateProjection.name

    /// `client` must connect as the schema owner.
    public init(client: PostgresClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
    }

    /// Runs one batch transaction.
    public func runBatch(limit: Int? = nil) async throws -> BatchResult {
        let limit = limit ?? configuration.batchSize
        let name = self.name
        let hook = configuration.afterEachEvent
        return try await client.transaction { connection in
            guard let checkpoint = try Self.lockCheckpoint(name, on: connection) else { return .busy }
            let events = try EventStore.readAll(after: checkpoint, limit: limit, on: connection)
            guard let last = events.last else { return .applied(0) }
            try JourneyStateProjection.apply(events, tables: .live, on: connection, afterEach: hook)
            try Self.storeCheckpoint(name, last.checkpoint, on: connection)
            return .applied(events.count)
        }
    }

    /// Applies everything currently readable; returns the number of events applied (stops early,
    /// with what it applied so far, when another runner holds the projection).
    @discardableResult
    public func catchUp() async throws -> Int {
        var total = 0
        while true {
            switch try await runBatch() {
            case .busy: return total
            case .applied(let count):
                total += count
                if count < configuration.batchSize { return total }
            }
        }
    }

    /// Follows the log until cancelled. Connection errors are retried after `pollInterval`.
    public func run() async throws {
        let bell = WakeUp()
        try await withThrowingTaskGroup(of: Void.self) { group in
            if configuration.listen {
                let listener = PostgresListener(client.database, channels: [EventStore.notificationChannel])
                group.addTask { await listener.run { _ in bell.ring() } }
            }
            group.addTask { [self] in
                while !Task.isCancelled {
                    do {
                        if case .applied(let count) = try await runBatch(), count == configuration.batchSize { continue }
                    } catch let error as PostgresError where error.isConnectionError || error.code == .poolTimeout {
                        // Retry at the next poll.
                    }
                    await bell.wait(upTo: configuration.pollInterval)
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    // MARK: - Checkpoints

    /// The checkpoint, row-locked for this transaction; nil when another transaction holds it.
    public static func lockCheckpoint(_ name: String, on connection: PostgresConnection) throws -> GlobalCheckpoint? {
        try connection.query("INSERT INTO projection_checkpoints (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING")
        guard let row = try connection.query("""
            SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name) FOR UPDATE SKIP LOCKED
            """).first else { return nil }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }

    public static func storeCheckpoint(_ name: String, _ checkpoint: GlobalCheckpoint, on connection: PostgresConnection) throws {
        try connection.query("""
            UPDATE projection_checkpoints SET transaction_id = \(String(checkpoint.transactionID))::xid8,
                position = \(checkpoint.position), updated_at = now() WHERE name = \(name)
            """)
    }

    /// The stored checkpoint of `name` (start when none).
    public static func checkpoint(_ name: String = JourneyStateProjection.name, client: PostgresClient) async throws -> GlobalCheckpoint {
        guard let row = try await client.query(
            "SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name)").first
        else { return .start }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }
}

/// A wake-up signal: `ring()` ends a pending `wait(upTo:)` early (or the next one).
final class WakeUp: Sendable {
    private let state = Mutex<(rung: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter { state.waiter = nil; return waiter }
            state.rung = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when rung, after `seconds`, or on cancellation.
    func wait(upTo seconds: Double) async {
        let deadline = Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            self?.ring()
        }
        defer { deadline.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rung { state.rung = false; return true }
                    if let old = state.waiter { old.resume() }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: { [weak self] in
            self?.ring()
        }
        state.withLock { $0.rung = false }
    }
}
