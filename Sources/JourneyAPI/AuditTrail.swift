import EventStore
import Foundation
import HTTPServer

/// `GET /v1/journeys/{id}/events`: the journey's events with their hash chain, as stored.
enum AuditTrail {
    /// The events as a JSON object `{journeyId, events: [...]}`; `data` is the stored JSON (sealed fields stay sealed).
    static func response(journeyID: String, events: [RecordedEvent]) throws -> HTTPResponse {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let items: [[String: Any]] = try events.map { event in
            [
                "position": event.position, "version": event.streamVersion, "id": event.id.uuidString.lowercased(),
                "type": event.type, "recordedAt": style.format(event.recordedAt),
                "data": try JSONSerialization.jsonObject(with: Data(event.data.text.utf8), options: [.fragmentsAllowed]),
                "previousHash": hex(event.previousHash), "hash": hex(event.hash),
            ]
        }
        let body = try JSONSerialization.data(
            withJSONObject: ["journeyId": journeyID, "events": items],
            options: [.sortedKeys, .withoutEscapingSlashes])
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: body)
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }
}
