import Audit
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `GET /v1/journeys/{id}?asOf=TIMESTAMP`: the journey as it stood at an instant (the engine's
/// as-of read).
extension Journeys {
    /// The journey's state now, or as of the request's `asOf` query item (RFC 3339), for a caller
    /// of `tenant`. A malformed `asOf` is a 400 `invalid_query_parameter` naming it; a journey
    /// without events by then, or of another tenant, is a 404 `journey_not_found`.
    func load(_ id: JourneyID, asOf request: HTTPRequest, tenant: String = JourneyStarted.defaultTenant) async throws
        -> JourneyState
    {
        guard let text = request.query("asOf") else { return try await state(of: id, tenant: tenant) }
        let instant: Date
        do {
            instant = try AsOf.parse(text, field: "asOf")
        } catch {
            throw Problem(
                status: .badRequest, code: "invalid_query_parameter",
                detail: "asOf must be \(AsOf.expected).", extra: ["field": "asOf"])
        }
        do {
            return try await state(of: id, tenant: tenant, asOf: instant)
        } catch let error as EngineError where error.code == .noEventsAsOf {
            throw Problem(
                status: .notFound, code: "journey_not_found", detail: "The journey had no event at asOf yet.",
                extra: ["field": "asOf"])
        }
    }
}
