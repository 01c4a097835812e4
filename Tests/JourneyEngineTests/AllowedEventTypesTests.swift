import JourneyDomain
import JourneyTesting
import Postgres
import Testing

/// Migration 0041's list of the types a `journey-*` stream takes is the domain's list: a new
/// journey event type needs a migration that replaces `journey_event_types()`.
@Suite struct AllowedEventTypesTests {
    @Test func journeyStreamsTakeExactlyTheDomainsEventTypes() async throws {
        try await TestDatabase.with { db in
            let listed = try await db.owner.query("SELECT unnest(journey_event_types())").map {
                try $0.decode(0, as: String.self)
            }
            #expect(listed.sorted() == JourneyEvent.allEventTypes.sorted())
        }
    }
}
