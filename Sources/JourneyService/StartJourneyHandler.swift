import AccessControl
import Cryptography
import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import Postgres

/// `POST /v1/journeys`: validates and seals the subject, records the start with the idempotency
/// claim in one transaction, creates the Unico process outside it, then records the outcome.
struct StartJourneyHandler: Sendable {
    let authenticator: RequestAuthenticator
    let writer: JourneyWriter
    let runner: AttemptRunner
    let idempotency: IdempotencyStore
    let token: TokenHandler
    let dependencies: JourneyDependencies

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let principal = try await authenticator.apiKey(request, scope: .journeysWrite)
        let body: StartJourneyRequest = try request.decode()
        let valid: ValidatedStartJourney
        do {
            valid = try body.input.validated()
        } catch {
            throw Problem.validation(error)
        }
        let claim = try Self.claim(request, principal: principal)
        let journeyID = JourneyID(UUID().uuidString.lowercased())
        let metadata = EventMetadata(correlationID: UUID(), actor: principal.actor)
        let vault = dependencies.vault
        let policy = dependencies.retryPolicy
        let started: AttemptRunner.Target? = try await writer.transaction { connection, now in
            if let claim, try !IdempotencyStore.claim(claim, journeyID: journeyID.rawValue, on: connection) { return nil }
            let sealed = try vault.seal(valid.subject, on: connection)
            let start = valid.command(journeyID: journeyID, subject: sealed, retryPolicy: policy)
            let outcome = try JourneyWriter.execute(.start(start), journey: journeyID, metadata: metadata, now: now,
                                                    on: connection)
            guard let attempt = outcome.state.currentAttempt else { throw Problem.internalError() }
            return AttemptRunner.Target(
                journeyID: journeyID, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                environment: valid.environment, flow: valid.flow, purpose: valid.purpose, subject: valid.subject,
                reference: sealed.reference)
        }
        guard let target = started else {
            guard let claim else { throw Problem.internalError() }
            return try await idempotency.replay(claim, wait: dependencies.idempotencyWait,
                                                recover: recovery(actor: principal.actor))
        }
        let tokens = dependencies.clientTokens
        var store: (@Sendable (HTTPResponse, PostgresConnection) throws -> Void)?
        if let claim {
            store = { response, connection in try IdempotencyStore.complete(claim, response: response, on: connection) }
        }
        let respond: @Sendable (Result<AttemptRunner.Issued, Problem>, Date) throws -> HTTPResponse = { result, now in
            try Self.response(result, journeyID: journeyID, environment: target.environment, tokens: tokens, now: now)
        }
        return try await runner.run(target, metadata: metadata, respond: respond, store: store)
    }

    /// Answers a stale key like a first start: the journey's current token (or a fresh attempt) with
    /// a new client token; nil while the attempt's Create Process is still unresolved (the workers
    /// reconcile it) or when the outcome is not a success worth storing.
    private func recovery(actor: String) -> IdempotencyStore.Recovery {
        let token = token
        let tokens = dependencies.clientTokens
        return { journeyID in
            let id = JourneyID(journeyID)
            let metadata = EventMetadata(correlationID: UUID(), actor: actor)
            do {
                let response = try await token.issue(id, metadata: metadata) { result, environment, now in
                    try Self.response(result, journeyID: id, environment: environment, tokens: tokens, now: now)
                }
                return response.status == .created ? response : nil
            } catch let problem as Problem where problem.status == .conflict {
                return nil
            }
        }
    }

    /// 201 with the token and a client token, or the problem of a failed creation.
    static func response(_ result: Result<AttemptRunner.Issued, Problem>, journeyID: JourneyID, environment: Environment,
                         tokens: ClientTokenIssuer, now: Date) throws -> HTTPResponse {
        let issued: AttemptRunner.Issued
        switch result {
        case .failure(let problem): return problem.response
        case .success(let value): issued = value
        }
        guard let uuid = UUID(uuidString: journeyID.rawValue) else { throw Problem.internalError() }
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let lifetime = ClientTokenIssuer.defaultLifetime
        let token = try tokens.issue(journeyID: uuid, now: now, lifetime: lifetime)
        let body = TokenResponse(
            journeyId: journeyID.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
            webAppTokenExpiresAt: issued.expiresAt, environment: environment.rawValue,
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
