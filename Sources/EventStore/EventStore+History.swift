import Foundation
import Postgres

/// Reads of the log as it stood at a cut of the global order (audit checkpoints summarize these).
///
/// A cut is a ``GlobalCheckpoint``: every event at or before it in (transaction id, position) order.
/// Each read runs on a caller's connection, inside the caller's transaction if one is open.
extension EventStore {
    /// A stream's last event at or before a cut.
    public struct StreamHead: Sendable, Equatable {
        public let stream: StreamName
        public let version: Int64
        public let hash: Data

        public init(stream: StreamName, version: Int64, hash: Data) {
            self.stream = stream
            self.version = version
            self.hash = hash
        }
    }

    /// The last event readable in the global order (below the MVCC horizon, so no event can later
    /// commit before it); `.start` for an empty log.
    public static func lastReadableCheckpoint(on connection: PostgresConnection) throws -> GlobalCheckpoint {
        guard let row = try connection.query(EventStoreStatements.lastReadable).first else { return .start }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }

    /// How many events are at or before `cut`.
    public static func eventCount(upTo cut: GlobalCheckpoint, on connection: PostgresConnection) throws -> Int64 {
        try connection.query(EventStoreStatements.eventCount(upTo: cut)).first?.decode(0, as: Int64.self) ?? 0
    }

    /// ``readableEventCount()`` on a caller's connection (a rebuild, which holds no store).
    public static func readableEventCount(on connection: PostgresConnection) throws -> Int {
        try connection.query(EventStoreStatements.readableEventCount).first?.decode(0, as: Int.self) ?? 0
    }

    /// The head of every stream with an event at or before `cut`.
    public static func streamHeads(upTo cut: GlobalCheckpoint, on connection: PostgresConnection) throws -> [StreamHead] {
        try connection.query(EventStoreStatements.streamHeads(upTo: cut)).map { row in
            StreamHead(stream: StreamName(try row.decode(0)), version: try row.decode(1), hash: try row.decode(2))
        }
    }

    /// The stream's head at `cut`, nil when it had no event by then.
    public static func streamHead(
        of stream: StreamName, upTo cut: GlobalCheckpoint,
        on connection: PostgresConnection
    ) throws -> StreamHead? {
        guard let row = try connection.query(EventStoreStatements.streamHead(of: stream, upTo: cut)).first else { return nil }
        return StreamHead(stream: stream, version: try row.decode(0), hash: try row.decode(1))
    }

    /// The checkpoint of the stream's first event in the global order: a cut includes an event of
    /// the stream exactly when it is at or after this. Nil for a stream without events.
    public static func firstCheckpoint(of stream: StreamName, on connection: PostgresConnection) throws -> GlobalCheckpoint? {
        guard let row = try connection.query(EventStoreStatements.firstEvent(of: stream)).first else { return nil }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }
}
