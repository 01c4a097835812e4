import Audit
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `GET /v1/journeys/{id}?asOf=TIMESTAMP`: the journey as it stood at an instant, folded from
/// the events recorded at or before it.
extension Journeys {
    /// The journey's state now, or as of the request's `asOf` query item (RFC 3339). A malformed
    /// `asOf` is a 400 `invalid_query_parameter` naming it; a journey without events by then, or
    /// of a tenant other than `tenant` (checked first, so `asOf` tells nothing about it), is a 404
    /// `journey_not_found`.
    func load(_ id: JourneyID, asOf request: HTTPRequest, tenant: String = JourneyStarted.defaultTenant) async throws
        -> JourneyState
    {
        let current = try await state(of: id, tenant: tenant)
        guard let text = request.query("asOf") else { return current }
        let instant: Date
        do {
            instant = try AsOf.parse(text, field: "asOf")
        } catch {
            throw Problem(
                status: .badRequest, code: "invalid_query_parameter",
                detail: "asOf must be \(AsOf.expected).", extra: ["field": "asOf"])
        }
        let timeline: JourneyTimeline
        do {
            timeline = try await JourneyTimeline.load(id, asOf: instant, events: events)
        } catch let error as AuditError where error.code == .journeyNotFound {
            throw Problem.journeyNotFound()
        }
        guard !timeline.entries.isEmpty else {
            throw Problem(
                status: .notFound, code: "journey_not_found", detail: "The journey had no event at asOf yet.",
                extra: ["field": "asOf"])
        }
        return timeline.state
    }
}
