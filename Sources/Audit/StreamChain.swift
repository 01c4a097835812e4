import Cryptography
import EventStore
import Foundation
import JourneyDomain

/// Recomputes one stream's hash chain outside the database, with the canonical form of
/// `event_hash` in schema/0001: sha256(previous hash || for each field `<byte length>:<value>\n`,
/// or `-\n` for NULL), fields: stream, version, event id, type, data (as stored JSON text),
/// correlation id, causation id, actor, recorded_at in microseconds since 1970.
public enum StreamChain {
    /// The outcome for one stream.
    public struct Result: Sendable, Equatable, Encodable {
        public var intact: Bool
        public var events: Int
        /// The first version that does not hold, and why.
        public var brokenAtVersion: Int64?
        public var reason: String?
    }

    /// Checks that versions run 1...n, each previous hash links and each hash matches its content.
    public static func verify(_ events: [RecordedEvent]) -> Result {
        var previous = Data(repeating: 0, count: 32)
        for (index, event) in events.enumerated() {
            let expected = Int64(index + 1)
            func broken(_ reason: String) -> Result {
                Result(intact: false, events: events.count, brokenAtVersion: expected, reason: reason)
            }
            if event.streamVersion != expected { return broken("version \(expected) is missing") }
            if event.previousHash != previous { return broken("previous hash does not link to the event before it") }
            if hash(event) != event.hash { return broken("content does not match its hash (altered)") }
            previous = event.hash
        }
        return Result(intact: true, events: events.count, brokenAtVersion: nil, reason: nil)
    }

    /// The event's hash recomputed from its content.
    public static func hash(_ event: RecordedEvent) -> Data {
        let fields: [String?] = [
            event.streamName.rawValue, String(event.streamVersion), event.id.uuidString.lowercased(), event.type,
            event.data.text, event.metadata.correlationID?.uuidString.lowercased(),
            event.metadata.causationID?.uuidString.lowercased(), event.metadata.actor,
            String(RFC3339.microseconds(since1970: event.recordedAt)),
        ]
        var bytes = [UInt8](event.previousHash)
        for field in fields {
            if let field {
                bytes += Array("\(field.utf8.count):".utf8) + Array(field.utf8)
            } else {
                bytes += Array("-".utf8)
            }
            bytes.append(0x0a)
        }
        return SHA256.hash(bytes)
    }
}
