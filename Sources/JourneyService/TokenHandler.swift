import EventStore
import Foundation
import HTTPServer
import JourneyDomain
import Postgres

/// `POST /v1/journeys/{id}/token`: the current `webAppToken` while it has at least 60 s left,
/// else a fresh process (a new attempt) if the retry policy allows; 409 with the reason if not.
struct TokenHandler: Sendable {
    private enum Step: Sendable {
        case current(AttemptRunner.Issued, Environment)
        case newAttempt(AttemptRunner.Target)
    }

    let authenticator: RequestAuthenticator
    let writer: JourneyWriter
    let runner: AttemptRunner
    let dependencies: JourneyDependencies

    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let uuid = try RequestAuthenticator.journeyID(request)
        let actor = try await authenticator.clientTokenOrAPIKey(request, journey: uuid, scope: .journeysWrite)
        let id = JourneyID(uuid.uuidString.lowercased())
        _ = try await writer.load(id)
        let metadata = EventMetadata(correlationID: UUID(), actor: actor)
        return try await issue(id, metadata: metadata) { result, environment, _ in
            switch result {
            case .failure(let problem): problem.response
            case .success(let issued): try Self.response(id, issued, environment)
            }
        }
    }

    /// Issues the current token or runs a fresh attempt, and turns the outcome into the answer.
    ///
    /// A domain refusal (e.g. the attempt's process is not created yet) is thrown as its problem.
    func issue(
        _ id: JourneyID, metadata: EventMetadata,
        respond: @escaping @Sendable (Result<AttemptRunner.Issued, Problem>, Environment, Date) throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let vault = dependencies.vault
        let clock = dependencies.clock
        let step: Step = try await writer.transaction { connection, now in
            let outcome = try JourneyWriter.execute(.issueToken, journey: id, metadata: metadata, now: now, on: connection)
            let state = outcome.state
            guard let attempt = state.currentAttempt, let subject = state.subject, let environment = state.environment,
                  let flow = state.flow, let purpose = state.purpose
            else { throw Problem.internalError() }
            if case .tokenIssued(let issued)? = outcome.events.last, let sealed = attempt.webAppToken {
                let token = try vault.open(sealed, field: AttemptRunner.SealedName.webAppToken,
                                           subject: subject.reference, on: connection)
                return .current(.init(attempt: attempt.number, webAppToken: token, expiresAt: issued.expiresAt), environment)
            }
            return .newAttempt(AttemptRunner.Target(
                journeyID: id, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                environment: environment, flow: flow, purpose: purpose,
                subject: try vault.open(subject, on: connection), reference: subject.reference))
        }
        switch step {
        case .current(let issued, let environment):
            return try respond(.success(issued), environment, clock())
        case .newAttempt(let target):
            return try await runner.run(target, metadata: metadata, respond: { result, now in
                try respond(result, target.environment, now)
            })
        }
    }

    private static func response(_ id: JourneyID, _ issued: AttemptRunner.Issued, _ environment: Environment) throws -> HTTPResponse {
        let body = TokenResponse(journeyId: id.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
                                 webAppTokenExpiresAt: issued.expiresAt, environment: environment.rawValue)
        return try HTTPResponse.json(body, encoder: TokenResponse.encoder)
    }
}
