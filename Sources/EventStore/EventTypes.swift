import Foundation
import Postgres

/// A stream's name, e.g. `journey-<uuid>`.
public struct StreamName: Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The prefix of every journey's stream: the one place that names it.
    public static let journeyPrefix = "journey-"
    /// `journey-<lowercased uuid>`.
    public static func journey(_ id: UUID) -> StreamName { journey(id.uuidString.lowercased()) }
    /// `journey-<id>`.
    public static func journey(_ id: String) -> StreamName { StreamName(journeyPrefix + id) }
    /// The journey id of a journey's stream name (`journey-<id>`), nil for any other stream.
    public static func journeyID(ofStream name: String) -> String? {
        name.hasPrefix(journeyPrefix) ? String(name.dropFirst(journeyPrefix.count)) : nil
    }
    /// The journey id of this stream, nil when it is not a journey's.
    public var journeyID: String? { Self.journeyID(ofStream: rawValue) }
    public var description: String { rawValue }
}

/// The version a writer expects a stream to be at; checked before anything is written.
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet (same as `exact(0)`).
    case noStream
    /// The stream's last event must have this version (events are numbered from 1).
    case exact(Int64)

    var databaseValue: Int64 {
        switch self {
        case .any: return -1
        case .noStream: return 0
        case .exact(let version): return version
        }
    }

    public var description: String {
        switch self {
        case .any: return "any"
        case .noStream: return "no-stream"
        case .exact(let version): return String(version)
        }
    }
}

/// Who and what caused an event; stored as real columns.
public struct EventMetadata: Sendable, Equatable, Codable {
    public var correlationID: UUID?
    public var causationID: UUID?
    public var actor: String?
    public init(correlationID: UUID? = nil, causationID: UUID? = nil, actor: String? = nil) {
        self.correlationID = correlationID
        self.causationID = causationID
        self.actor = actor
    }
}

/// An event to append.
public struct NewEvent: Sendable, Equatable {
    public var id: UUID
    public var type: String
    /// The payload as JSON text.
    public var data: JSONB
    public var metadata: EventMetadata

    public init(id: UUID = .v7(), type: String, data: JSONB, metadata: EventMetadata = EventMetadata()) {
        self.id = id
        self.type = type
        self.data = data
        self.metadata = metadata
    }
}

/// Where a global reader stands: the (transaction id, position) of the last event it took.
public struct GlobalCheckpoint: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let transactionID: UInt64
    public let position: Int64
    public init(transactionID: UInt64, position: Int64) {
        self.transactionID = transactionID
        self.position = position
    }
    /// Before every event.
    public static let start = GlobalCheckpoint(transactionID: 0, position: 0)
    public static func < (a: Self, b: Self) -> Bool {
        (a.transactionID, a.position) < (b.transactionID, b.position)
    }
    public var description: String { "\(transactionID):\(position)" }
}

/// An event as stored.
public struct RecordedEvent: Sendable, Equatable {
    public let position: Int64
    public let transactionID: UInt64
    public let streamName: StreamName
    public let streamVersion: Int64
    public let id: UUID
    public let type: String
    public let data: JSONB
    public let metadata: EventMetadata
    public let recordedAt: Date
    public let previousHash: Data
    public let hash: Data

    public var checkpoint: GlobalCheckpoint { GlobalCheckpoint(transactionID: transactionID, position: position) }
}

/// What an append wrote (or, for an idempotent retry, what the first write wrote).
public struct AppendResult: Sendable, Equatable {
    public let positions: [Int64]
    /// The stream's version after the append.
    public let streamVersion: Int64
}
