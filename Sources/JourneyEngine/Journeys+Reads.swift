import Audit
import EventStore
import Foundation
import JourneyDomain

/// Reads of one journey confined to a tenant: another tenant's journey answers exactly as a
/// journey that does not exist (`journey_not_found`), so a caller learns nothing about it. Lists
/// and reports are confined in SQL (a `tenant` predicate); single journeys, folded from the log,
/// here, by the one rule of ``Journeys/visible(_:to:)``.
extension Journeys {
    /// The journey's current state when it exists and `tenant` (nil: any) may see it;
    /// `journey_not_found` otherwise.
    public func state(of id: JourneyID, tenant: String?) async throws -> JourneyState {
        let (state, version) = try await load(id)
        guard version > 0, Self.visible(state, to: tenant) else { throw EngineError.notFound() }
        return state
    }

    /// The journey as it stood at `instant`, folded from the events recorded at or before it,
    /// once its current state says `tenant` may see it (checked first, so `instant` tells
    /// nothing about another tenant's journey); `no_events_as_of` when it had no event by then.
    public func state(of id: JourneyID, tenant: String?, asOf instant: Date) async throws -> JourneyState {
        _ = try await state(of: id, tenant: tenant)
        let events = try await commands.events.readStream(StreamName.journey(id.rawValue), from: 1, limit: Int(Int32.max))
        let timeline = try JourneyTimeline.timeline(id, events: events, asOf: instant)
        guard !timeline.entries.isEmpty else { throw EngineError(.noEventsAsOf, "the journey had no event at that instant yet") }
        return timeline.state
    }

    /// Ids of the journeys started for `subject`, oldest first, read from the log (a read model
    /// may lag behind a new journey); only `tenant`'s when given.
    public func journeyIDs(of subject: SubjectReference, tenant: String? = nil) async throws -> [JourneyID] {
        try await database.query(EngineStatements.journeys(of: subject.rawValue, tenant: tenant)).map {
            JourneyID(try $0.decode(0, as: String.self))
        }
    }

    /// Whether a caller of `tenant` (nil: any, e.g. an operator's CLI) may see a journey in `state`.
    static func visible(_ state: JourneyState, to tenant: String?) -> Bool {
        tenant.map { $0 == state.tenantName } ?? true
    }
}
