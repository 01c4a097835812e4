import AccessControl
import Cryptography
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Postgres

/// `POST /v1/journeys`: validates the subject and starts the journey through the engine, with
/// the idempotency claim in the start's transaction and the answer stored in the transaction
/// that records the first attempt's outcome.
struct StartJourneyHandler: Sendable {
    let authenticator: RequestAuthenticator
    let journeys: Journeys
    let idempotency: IdempotencyStore
    let dependencies: JourneyDependencies

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let principal = try await authenticator.apiKey(request, scope: .journeysWrite)
        try request.requireMediaType()
        let body: StartJourneyRequest = try request.decode()
        let valid: ValidatedStartJourney
        do {
            valid = try body.input.validated()
        } catch {
            throw Problem.validation(error)
        }
        let claim = try Self.claim(request, principal: principal)
        let tokens = dependencies.clientTokens
        let outcome = try await journeys.start(valid, actor: principal.actor, claim: { journeyID, connection in
            guard let claim else { return true }
            return try IdempotencyStore.claim(claim, journeyID: journeyID.rawValue, on: connection)
        }, answer: { outcome, connection in
            let response = try Self.response(outcome, tokens: tokens)
            if let claim { try IdempotencyStore.complete(claim, response: response, on: connection) }
            return response
        })
        switch outcome {
        case .answered(let response):
            return response
        case .claimedElsewhere:
            guard let claim else { throw Problem.internalError() }
            return try await idempotency.replay(claim, wait: dependencies.idempotencyWait,
                                                recover: recovery(actor: principal.actor))
        }
    }

    /// Answers a stale key like a first start: the journey's current token (or a fresh attempt) with
    /// a new client token; nil while the attempt's Create Process is still unresolved (the workers
    /// reconcile it) or when the outcome is not a success worth storing.
    private func recovery(actor: String) -> IdempotencyStore.Recovery {
        let (journeys, tokens) = (journeys, dependencies.clientTokens)
        return { journeyID in
            do {
                let outcome = try await journeys.issueToken(JourneyID(journeyID), actor: actor)
                let response = try Self.response(outcome, tokens: tokens)
                return response.status == .created ? response : nil
            } catch let refusal as DomainError where refusal.code.suggestedHTTPStatus == 409 {
                return nil
            }
        }
    }

    /// 201 with the token and a client token, or the problem of a failed creation.
    static func response(_ outcome: AttemptOutcome, tokens: ClientTokenIssuer) throws -> HTTPResponse {
        let issued: IssuedToken
        switch outcome.result {
        case .failure(let error): return Problem.engine(error).response
        case .success(let value): issued = value
        }
        let (journeyID, now) = (outcome.journeyID, outcome.decidedAt)
        guard let uuid = UUID(uuidString: journeyID.rawValue) else { throw Problem.internalError() }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let lifetime = ClientTokenIssuer.defaultLifetime
        let token = try tokens.issue(journeyID: uuid, now: now, lifetime: lifetime)
        let body = TokenResponse(
            journeyId: journeyID.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
            webAppTokenExpiresAt: issued.expiresAt, environment: outcome.environment.rawValue,
            clientToken: token, clientTokenExpiresAt: issuedAt.addingTimeInterval(lifetime))
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }

    /// The request's idempotency claim, if it sent an `Idempotency-Key`.
    static func claim(_ request: HTTPRequest, principal: Principal) throws -> IdempotencyStore.Claim? {
        guard let key = request.headers["Idempotency-Key"] else { return nil }
        guard !key.isEmpty, key.count <= IdempotencyStore.maximumKeyLength,
              key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F })
        else {
            throw Problem.validationFailed(
                field: "Idempotency-Key",
                detail: "Idempotency-Key must be 1 to \(IdempotencyStore.maximumKeyLength) printable ASCII characters.")
        }
        return IdempotencyStore.Claim(apiKeyID: principal.keyID, key: key, requestHash: SHA256.hash(request.body))
    }
}
