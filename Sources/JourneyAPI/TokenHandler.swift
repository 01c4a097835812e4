import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `POST /v1/journeys/{id}/token`: a `webAppToken` to open a capture. The current attempt's while
/// its capture was not opened yet and 60 s of it remain (a double tap is one capture), else a
/// fresh process (a new attempt) if the retry policy allows; 409 naming the state if not.
struct TokenHandler: Sendable {
    let authenticator: RequestAuthenticator
    let journeys: Journeys

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let uuid = try RequestAuthenticator.journeyID(request)
        let (actor, tenant) = try await authenticator.clientTokenOrAPIKey(request, journey: uuid, scope: .journeysWrite)
        let id = JourneyID(uuid.uuidString.lowercased())
        if let tenant {
            _ = try await journeys.state(of: id, tenant: tenant)
        } else {
            _ = try await journeys.state(of: id)
        }
        let outcome = try await journeys.issueToken(id, actor: actor)
        switch outcome.result {
        case .failure(let error):
            return Problem.engine(error).about(journey: id.rawValue).response
        case .success(let issued):
            let body = TokenResponse(
                journeyId: id.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
                webAppTokenExpiresAt: issued.expiresAt, environment: outcome.environment.rawValue)
            return try HTTPResponse.json(body, encoder: TokenResponse.encoder)
        }
    }
}
