import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `POST /v1/journeys/{id}/client-token`: a fresh client token for the app of a person who comes
/// back to a journey that can still be continued (Persona's "resume inquiry"). API key with
/// `journeys:write`, its own tenant's journeys only. The token lives ``JourneyClientToken/lifetime``,
/// never past the journey's known end; earlier tokens keep working until their own expiry.
/// A journey that ended answers 410 `journey_ended`, one past its deadline (the workers are about
/// to abandon it) 409 `deadline_reached`. Nothing is appended to the journey.
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
        if let deadline = state.deadline, state.isPastDeadline(now) {
            let refusal = DomainError(
                code: .deadlineReached,
                message: "cannot issue a client token while the journey is "
                    + "\(state.status.rawValue): its deadline \(Self.format(deadline)) passed",
                status: state.status)
            throw Problem.domain(refusal).about(journey: id.rawValue)
        }
        let (token, expiresAt) = try JourneyClientToken.issue(
            dependencies.clientTokens, journeyID: uuid, now: now,
            until: state.continuationDeadline)
        let body = ClientTokenResponse(
            journeyId: id.rawValue, status: state.status.rawValue, clientToken: token,
            clientTokenExpiresAt: expiresAt)
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }

    private static func format(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
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
