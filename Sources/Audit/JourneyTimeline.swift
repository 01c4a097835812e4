import EventStore
import Foundation
import JourneyDomain
import Postgres
import Timestamps

/// A journey's steps as recorded, and its state, as of an instant: only events recorded at or
/// before it are folded (with the domain's `Journey.evolve`).
public struct JourneyTimeline: Sendable {
    /// One recorded event, described for people.
    public struct Entry: Sendable, Equatable, Encodable {
        public let recordedAt: Date
        public let version: Int64
        public let position: Int64
        public let type: String
        public let attempt: Int
        public let description: String
        public let actor: String?
    }

    public let journeyID: JourneyID
    /// The instant asked for; nil for "now".
    public let asOf: Date?
    /// Events recorded at or before `asOf`, in stream order.
    public let entries: [Entry]
    /// The disclosures among those events, oldest first.
    public let disclosures: [Disclosure]
    /// The fold of those events (the initial state when there are none).
    public let state: JourneyState
    /// The stream's version today (events recorded after `asOf` included).
    public let currentVersion: Int64

    /// Loads `id`'s timeline as of `asOf` (all events when nil); throws `journey_not_found` when
    /// the journey has no event at all.
    public static func load(_ id: JourneyID, asOf: Date?, events store: EventStore) async throws -> JourneyTimeline {
        let stream = StreamName.journey(id.rawValue)
        let events = try await store.readStream(stream, from: 1, limit: Int(Int32.max))
        guard !events.isEmpty else { throw AuditError(.journeyNotFound, "no journey has id \(id.rawValue)") }
        return try timeline(id, events: events, asOf: asOf)
    }

    /// Builds the timeline from a stream's recorded events.
    public static func timeline(_ id: JourneyID, events: [RecordedEvent], asOf: Date?) throws -> JourneyTimeline {
        let limit = asOf.map { RFC3339.microseconds(since1970: $0) }
        var state = Journey.initialState
        var entries: [Entry] = []
        var disclosures: [Disclosure] = []
        for event in events {
            if let limit, RFC3339.microseconds(since1970: event.recordedAt) > limit { break }
            let decoded: JourneyEvent
            do {
                decoded = try JourneyEvent(type: event.type, text: event.data.text)
            } catch {
                throw AuditError(
                    .undecodableEvent, "event \(event.streamVersion) of journey \(id.rawValue) does not decode: \(error.code)")
            }
            state = Journey.evolve(state, decoded)
            if case .personalDataDisclosed(let disclosed) = decoded {
                disclosures.append(Disclosure(disclosed, recordedAt: event.recordedAt, version: event.streamVersion))
            }
            entries.append(
                Entry(
                    recordedAt: event.recordedAt, version: event.streamVersion, position: event.position,
                    type: event.type, attempt: decoded.attempt, description: EventDescription.describe(decoded),
                    actor: event.metadata.actor))
        }
        return JourneyTimeline(
            journeyID: id, asOf: asOf, entries: entries, disclosures: disclosures, state: state,
            currentVersion: events.last?.streamVersion ?? 0)
    }
}
