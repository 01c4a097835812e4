import EventStore
import Foundation
import Postgres
import Timestamps

/// Renders an event as one line of JSON for `events read` and `events tail`.
enum EventJSONLine {
    static func render(_ event: RecordedEvent) -> String {
        var fields: [(String, String)] = [
            ("position", String(event.position)),
            ("stream", quote(event.streamName.rawValue)),
            ("version", String(event.streamVersion)),
            ("id", quote(event.id.uuidString.lowercased())),
            ("type", quote(event.type)),
            ("data", event.data.text),
            ("recordedAt", quote(timestamp(event.recordedAt))),
        ]
        if let correlation = event.metadata.correlationID {
            fields.append(("correlationId", quote(correlation.uuidString.lowercased())))
        }
        if let causation = event.metadata.causationID { fields.append(("causationId", quote(causation.uuidString.lowercased()))) }
        if let actor = event.metadata.actor { fields.append(("actor", quote(actor))) }
        fields.append(("previousHash", quote(hex(event.previousHash))))
        fields.append(("hash", quote(hex(event.hash))))
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func quote(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    static func timestamp(_ date: Date) -> String {
        RFC3339.string(from: date)
    }
}
