import Postgres

extension EventStore {
    /// An event as a fold needs it: where it stands, its stream, type and JSON bytes; none of the
    /// id, metadata, time or hashes that ``RecordedEvent`` decodes.
    public struct FoldEvent: Sendable, Equatable {
        public let position: Int64
        public let transactionID: UInt64
        public let streamName: String
        public let streamVersion: Int64
        public let type: String
        /// The payload's JSON text, as UTF-8 bytes.
        public let data: [UInt8]

        public var checkpoint: GlobalCheckpoint { GlobalCheckpoint(transactionID: transactionID, position: position) }

        init(row: PostgresRow) throws {
            position = try row.decode(0)
            transactionID = try row.decode(1)
            streamName = try row.decode(2)
            streamVersion = try row.decode(3)
            type = try row.decode(4)
            data = try row.decode(5, as: Bytes.self).bytes
        }
    }

    /// `readAll`'s events (same order, same horizon) with only the columns a fold reads.
    public static func readAllForFold(
        after checkpoint: GlobalCheckpoint, limit: Int,
        on connection: PostgresConnection
    ) throws -> [FoldEvent] {
        try connection.query(EventStoreStatements.readAllForFold(after: checkpoint, limit: limit)).map(FoldEvent.init(row:))
    }

    /// A cell's bytes, copied once (no `String` in between).
    private struct Bytes: PostgresTextDecodable {
        let bytes: [UInt8]
        init?(postgresText text: String) { bytes = Array(text.utf8) }
        init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) { self.bytes = Array(bytes) }
    }
}
