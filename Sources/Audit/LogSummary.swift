import Cryptography
import EventStore
import Foundation
import Postgres

/// What a checkpoint summarizes: the events at or before a cut of the global order.
public struct LogSummary: Sendable, Equatable, Codable {
    /// The cut: every event at or before it in (transaction id, position) order.
    public let cut: GlobalCheckpoint
    /// Streams with at least one event in the cut.
    public let streams: Int64
    /// Events in the cut.
    public let events: Int64
    /// sha256 over every stream's head in the cut, streams in byte order of their names, each as
    /// `<name byte length>:<name>\n<version>\n<head hash hex>\n`.
    public let headsDigest: Data

    public init(cut: GlobalCheckpoint, streams: Int64, events: Int64, headsDigest: Data) {
        self.cut = cut
        self.streams = streams
        self.events = events
        self.headsDigest = headsDigest
    }

    /// The last event readable in the global order (below the MVCC horizon, so no event can
    /// later commit before it); `.start` for an empty log.
    public static func currentCut(on connection: PostgresConnection) throws -> GlobalCheckpoint {
        try EventStore.lastReadableCheckpoint(on: connection)
    }

    /// Recomputes the summary of `cut` from the events stored now (hashing outside the database).
    public static func compute(upTo cut: GlobalCheckpoint, on connection: PostgresConnection) throws -> LogSummary {
        let events = try EventStore.eventCount(upTo: cut, on: connection)
        var heads = try EventStore.streamHeads(upTo: cut, on: connection).map { head in
            (name: Array(head.stream.rawValue.utf8), version: head.version, hash: head.hash)
        }
        heads.sort { $0.name.lexicographicallyPrecedes($1.name) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(heads.count * 120)
        for head in heads {
            bytes += Array("\(head.name.count):".utf8) + head.name
            bytes += Array("\n\(head.version)\n\(Hex.encode(head.hash))\n".utf8)
        }
        return LogSummary(cut: cut, streams: Int64(heads.count), events: events, headsDigest: SHA256.hash(bytes))
    }

    /// The stream's last event at or before `cut` (version and hash), nil when it had none.
    public static func head(
        of stream: StreamName, at cut: GlobalCheckpoint,
        on connection: PostgresConnection
    ) throws -> (version: Int64, hash: Data)? {
        try EventStore.streamHead(of: stream, upTo: cut, on: connection).map { ($0.version, $0.hash) }
    }
}
