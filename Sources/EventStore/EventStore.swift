import Foundation
import Postgres

/// The PostgreSQL event log: optimistic appends per stream, idempotent by event id,
/// hash-chained, and readable in a global order that never skips a late-committing event.
///
/// ## Global order
/// Each row stores the id of the transaction that wrote it (`pg_current_xact_id()`, xid8).
/// `readAll` returns only rows whose transaction id is below the oldest transaction still
/// running (`pg_snapshot_xmin(pg_current_snapshot())`), ordered by (transaction id, position).
/// A transaction that has not committed can therefore never be overtaken: when it commits its
/// rows sort after every checkpoint handed out before, and when it aborts they never appear.
/// Writers stay fully parallel (no global lock).
///
/// Failure modes, by design:
/// - Any long-running transaction *in the cluster* that holds a transaction id (even in another
///   database) holds readers back until it ends. Readers are delayed, never wrong.
///   Watch `pg_stat_activity` for old `backend_xid`s; prepared transactions count too.
/// - Transaction ids are not stable across dump/restore or logical replication: checkpoints
///   must be reset (projections rebuilt) after a restore. Physical replicas and failover keep them.
/// - Per-stream order holds in the global order too: an append whose transaction id was drawn
///   before a newer transaction appended to the same stream (possible when the caller wrote
///   other rows first) is refused with `order_conflict`; retry the whole transaction. Appending
///   first in a transaction avoids it.
/// - Positions have gaps (rolled-back appends) and are not commit order; use checkpoints, not
///   position arithmetic.
public final class EventStore: Sendable {
    public let client: PostgresClient
    /// Channel NOTIFYed after appends commit (a wake-up only).
    public static let notificationChannel = "journeys_events"
    private let notifier: AppendNotifier
    /// Group commit for `append(_:to:expectedVersion:)`; nil when `Grouping.isEnabled` is off.
    private let appender: GroupAppender?

    public init(client: PostgresClient, grouping: Grouping = Grouping()) {
        self.client = client
        self.notifier = AppendNotifier(client: client)
        self.appender = grouping.isEnabled ? GroupAppender(client: client, configuration: grouping) : nil
    }

    /// Wakes subscribers after a caller's transaction with `append(_:to:expectedVersion:on:)`
    /// committed. Coalesced and asynchronous; a missed wake-up only delays readers to their poll.
    public func notifyAppended() {
        notifier.signal()
    }

    /// Appends `events` to `stream` if it is at `expectedVersion`, in a transaction of its own:
    /// group-committed with concurrent appends to other streams unless grouping is off.
    @discardableResult
    public func append(_ events: [NewEvent], to stream: StreamName, expectedVersion: ExpectedVersion) async throws -> AppendResult
    {
        let result: AppendResult
        if let appender {
            try Self.validate(events)
            result = try await appender.append(events, to: stream, expectedVersion: expectedVersion)
        } else {
            try Self.validate(events)
            // One statement outside a transaction: the client's event-loop path (sent from this
            // thread, one wake-up) instead of a hop to the connection's queue and back.
            do {
                result = try Self.appendResult(
                    try await client.query(EventStoreStatements.append(events, to: stream, expectedVersion: expectedVersion)))
            } catch let error as PostgresError {
                throw EventStoreError.from(error, stream: stream, expected: expectedVersion)
            }
        }
        notifier.signal()
        return result
    }

    /// Appends on a caller's connection, inside the caller's transaction if one is open.
    public static func append(
        _ events: [NewEvent], to stream: StreamName, expectedVersion: ExpectedVersion,
        on connection: PostgresConnection
    ) throws -> AppendResult {
        try validate(events)
        let query = EventStoreStatements.append(events, to: stream, expectedVersion: expectedVersion)
        do {
            return try appendResult(try connection.query(query))
        } catch let error as PostgresError {
            throw EventStoreError.from(error, stream: stream, expected: expectedVersion)
        }
    }

    /// Appends `events` with the connection's next statement or its transaction's `COMMIT`, in
    /// that round trip (``PostgresConnection/enqueue(_:)``), for an append whose expected
    /// version the caller knows holds (a stream named by an id it just drew): its positions are
    /// not read, and a refusal fails the statement that carried it, and the transaction, with
    /// the server's error (`JS00x`).
    public static func enqueueAppend(
        _ events: [NewEvent], to stream: StreamName, expectedVersion: ExpectedVersion,
        on connection: PostgresConnection
    ) throws {
        try validate(events)
        try connection.enqueue(EventStoreStatements.append(events, to: stream, expectedVersion: expectedVersion))
    }

    /// `append_events`' one row: positions and the stream's new version.
    private static func appendResult(_ rows: PostgresRows) throws -> AppendResult {
        guard let row = rows.first else { throw EventStoreError(.invalidEvent, "append returned nothing") }
        return AppendResult(
            positions: try parseBigintArray(try row.decode(0, as: String.self)),
            streamVersion: try row.decode(1, as: Int64.self))
    }

    /// The stream's events with version >= `version`, in order.
    public func readStream(_ stream: StreamName, from version: Int64 = 1, limit: Int = 10_000) async throws -> [RecordedEvent] {
        try await client.withConnection { try Self.readStream(stream, from: version, limit: limit, on: $0) }
    }

    /// `readStream` on a caller's connection (inside the caller's transaction if one is open);
    /// every event by default.
    public static func readStream(
        _ stream: StreamName, from version: Int64 = 1, limit: Int = .max,
        on connection: PostgresConnection
    ) throws -> [RecordedEvent] {
        try connection.query(EventStoreStatements.readStream(stream, from: version, limit: limit)).map(RecordedEvent.init(row:))
    }

    /// The first event (version 1) of each of `streams` that has one, in no particular order.
    public static func firstEvents(of streams: [StreamName], on connection: PostgresConnection) throws -> [RecordedEvent] {
        try connection.query(EventStoreStatements.firstEvents(of: streams.map(\.rawValue))).map(RecordedEvent.init(row:))
    }

    /// The stream's current version, or nil when it does not exist.
    public func streamVersion(_ stream: StreamName) async throws -> Int64? {
        try await client.query(EventStoreStatements.streamVersion(stream))
            .first?.decode(0, as: Int64.self)
    }

    /// Up to `limit` events after `checkpoint` in the global order (see the type's docs).
    public func readAll(after checkpoint: GlobalCheckpoint, limit: Int = 1000) async throws -> [RecordedEvent] {
        try await client.withConnection { try Self.readAll(after: checkpoint, limit: limit, on: $0) }
    }

    /// `readAll` on a caller's connection.
    public static func readAll(after checkpoint: GlobalCheckpoint, limit: Int, on connection: PostgresConnection) throws
        -> [RecordedEvent]
    {
        try connection.query(EventStoreStatements.readAll(after: checkpoint, limit: limit)).map(RecordedEvent.init(row:))
    }

    /// The checkpoint just before the event at `position` (to resume "after position P").
    public func checkpoint(atPosition position: Int64) async throws -> GlobalCheckpoint? {
        guard position > 0 else { return .start }
        let row = try await client.query(EventStoreStatements.transactionID(atPosition: position)).first
        guard let row else { return nil }
        return GlobalCheckpoint(transactionID: try row.decode(0, as: UInt64.self), position: position)
    }

    /// How many events the log holds, readable or not.
    public func eventCount() async throws -> Int {
        try await client.query(EventStoreStatements.eventCount).first?.decode(0, as: Int.self) ?? 0
    }

    /// How many events are readable in the global order (below the MVCC horizon): what reading
    /// the whole log with `readAll` returns now.
    public func readableEventCount() async throws -> Int {
        try await client.query(EventStoreStatements.readableEventCount).first?.decode(0, as: Int.self) ?? 0
    }
}

/// Parses `{1,2,3}`.
func parseBigintArray(_ text: String) throws -> [Int64] {
    let inner = text.dropFirst().dropLast()
    if inner.isEmpty { return [] }
    return try inner.split(separator: ",").map {
        guard let value = Int64($0) else { throw EventStoreError(.invalidEvent, "unexpected positions \(text)") }
        return value
    }
}

extension RecordedEvent {
    init(row: PostgresRow) throws {
        self.init(
            position: try row.decode(0), transactionID: try row.decode(1),
            streamName: StreamName(try row.decode(2)), streamVersion: try row.decode(3),
            id: try row.decode(4), type: try row.decode(5), data: try row.decode(6),
            metadata: EventMetadata(correlationID: try row.decode(7), causationID: try row.decode(8), actor: try row.decode(9)),
            recordedAt: try row.decode(10), previousHash: try row.decode(11), hash: try row.decode(12))
    }
}
