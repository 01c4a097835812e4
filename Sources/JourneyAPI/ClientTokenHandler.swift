import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `POST /v1/journeys/{id}/client-token`: a fresh client token for the app of a person who comes
/// back to a journey that can still be continued (Persona's "resume inquiry"). API key with
/// `journeys:write`, its own tenant's journeys only. The token lives ``JourneyClientToken/lifetime``,
/// never past the journey's known end; earlier tokens keep working until their own expiry.
/// A journey that ended answers 410 `journey_ended`. Nothing is appended to the journey.
struct ClientTokenHandler: Sendable {
    let authenticator: RequestAuthenticator
    let journeys: Journeys
    let dependencies: JourneyDependencies

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let principal = try await authenticator.apiKey(request, scope: .journeysWrite)
        let uuid = try RequestAuthenticator.journeyID(request)
        let id = JourneyID(uuid.uuidString.lowercased())
        let state = try await journeys.state(of: id, tenant: principal.tenant)
        guard !state.status.isTerminal else { throw Problem.journeyEnded(state.status).about(journey: id.rawValue) }
        let now = dependencies.clock()
        let (token, expiresAt) = try JourneyClientToken.issue(dependencies.clientTokens, journeyID: uuid, now: now,
                                                              until: state.continuationDeadline)
        let body = ClientTokenResponse(journeyId: id.rawValue, status: state.status.rawValue, clientToken: token,
                                       clientTokenExpiresAt: expiresAt)
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }
}

/// The answer of `POST /v1/journeys/{id}/client-token`.
struct ClientTokenResponse: Encodable, Sendable {
    var journeyId: String
    /// The journey's state, so the app knows whether to ask for a token.
    var status: String
    var clientToken: String
    var clientTokenExpiresAt: Date
}
