import HTTPServer
import JourneyDomain
import JourneyEngine

/// Reads confined to the caller's tenant: another tenant's journey answers exactly as a journey
/// that does not exist (404 `journey_not_found`, never 403), so a key learns nothing about it.
/// Lists and reports are confined in SQL (a `tenant` predicate); single journeys, folded from the
/// log, here.
extension Journeys {
    /// The journey's current state when it exists and belongs to `tenant`; 404 `journey_not_found` otherwise.
    func state(of id: JourneyID, tenant: String) async throws -> JourneyState {
        let (state, version) = try await load(id)
        guard version > 0, state.tenantName == tenant else { throw Problem.journeyNotFound() }
        return state
    }
}
