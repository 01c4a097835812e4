import EventStore
import Foundation
import JourneyDomain

extension Journeys {
    private enum TokenStep: Sendable {
        case current(IssuedToken, Environment)
        case newAttempt(AttemptTarget)
    }

    /// The current `webAppToken` while it has at least 60 s left, else a fresh process (a new
    /// attempt) if the retry policy allows. The domain's refusals (no attempts left, Create
    /// Process still in flight) are thrown as `DomainError`.
    public func issueToken(_ id: JourneyID, actor: String) async throws -> AttemptOutcome {
        let metadata = metadata(actor: actor)
        let vault = dependencies.vault
        let step: TokenStep = try await commands.transaction { context in
            let outcome = try context.execute(.issueToken, journey: id, metadata: metadata)
            let state = outcome.state
            guard let attempt = state.currentAttempt, let subject = state.subject, let environment = state.environment,
                  let flow = state.flow, let purpose = state.purpose
            else { throw EngineError(.inconsistentState, "a journey with a token has no attempt") }
            if case .tokenIssued(let issued)? = outcome.events.last, let sealed = attempt.webAppToken {
                let token = try vault.open(sealed, field: SealedName.webAppToken, subject: subject.reference,
                                           on: context.connection)
                return .current(IssuedToken(attempt: attempt.number, webAppToken: token, expiresAt: issued.expiresAt),
                                environment)
            }
            return .newAttempt(AttemptTarget(
                journeyID: id, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                environment: environment, flow: flow, purpose: purpose,
                subject: try vault.open(subject, on: context.connection), reference: subject.reference))
        }
        switch step {
        case .current(let issued, let environment):
            return AttemptOutcome(journeyID: id, environment: environment, result: .success(issued),
                                  decidedAt: dependencies.clock())
        case .newAttempt(let target):
            return try await runAttempt(target, metadata: metadata)
        }
    }
}
