import Cryptography
import Foundation

/// The chain hash of schema/0001's `event_hash`, recomputed outside the database:
/// sha256(previous hash || for each field `<byte length>:<value>\n`, or `-\n` for NULL), fields:
/// stream, version, event id, type, data (as stored JSON text), correlation id, causation id,
/// actor, recorded_at in microseconds since 1970.
public enum EventHash {
    /// The hash of `fields` (in the order above, as text) chained to `previous`.
    public static func hash(previous: Data, fields: [String?]) -> Data {
        var bytes = [UInt8](previous)
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

    /// `event`'s hash recomputed from its content.
    public static func hash(of event: RecordedEvent) -> Data {
        let microseconds = Int64((event.recordedAt.timeIntervalSince1970 * 1_000_000).rounded())
        return hash(
            previous: event.previousHash,
            fields: [
                event.streamName.rawValue, String(event.streamVersion), event.id.uuidString.lowercased(), event.type,
                event.data.text, event.metadata.correlationID?.uuidString.lowercased(),
                event.metadata.causationID?.uuidString.lowercased(), event.metadata.actor, String(microseconds),
            ])
    }
}
