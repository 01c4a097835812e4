import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine

/// `POST /v1/journeys/{id}/cancel`: the company ends a journey it no longer wants (API key with
/// `journeys:write`, its own tenant's journeys). Body `{"reason": "..."}`, required: 1 to
/// ``JourneyDomain/JourneyCancellation/maximumReasonLength`` characters, nothing shaped like personal
/// data (422 `validation_failed` naming `reason`). Appends `JourneyCancelled` (reason, the key as
/// actor) and `JourneyAbandoned` (reason kind `cancelled`): the journey is final, makes no more
/// processes, and the app's routes answer 409 naming `journeyStatus: abandoned` and
/// `abandonReason: cancelled`. Answers 200 with the journey; a repeated cancel answers the same
/// without appending; a journey that ended otherwise answers 409 `invalid_transition`.
struct CancelJourneyHandler: Sendable {
    struct Body: Decodable, Sendable {
        var reason: String?
    }

    let authenticator: RequestAuthenticator
    let journeys: Journeys

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let principal = try await authenticator.apiKey(request, scope: .journeysWrite)
        let uuid = try RequestAuthenticator.journeyID(request)
        let id = JourneyID(uuid.uuidString.lowercased())
        var body = Body()
        if !request.body.isEmpty {
            try request.requireMediaType()
            body = try request.decode()
        }
        let reason: String
        switch JourneyCancellation.checkedReason(body.reason) {
        case .success(let checked): reason = checked
        case .failure(let issue): throw Problem.validation(ValidationError(issues: [issue]))
        }
        let outcome = try await journeys.cancel(
            id, JourneyCancellation(reason: reason, actor: principal.actor),
            tenant: principal.tenant)
        return try HTTPResponse.json(JourneyView(outcome.state, id: id), encoder: TokenResponse.encoder)
    }
}
