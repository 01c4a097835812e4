import Foundation
import JourneyDomain
import Observability
import Postgres

extension Journeys {
    /// Starts a journey: seals the subject and records the start (after `claim`) in one
    /// transaction, creates the first attempt's Unico process outside it, then records the
    /// outcome, with `answer` run inside that last transaction.
    ///
    /// The start's transaction knows the new stream is empty and the record's knows it as the
    /// start left it (loaded again only after a version conflict), so neither loads it.
    ///
    /// `claim` runs first in the start's transaction with the new journey's id; false (another
    /// request holds the caller's idempotency key) starts nothing and returns `.claimedElsewhere`.
    /// Once the start is committed, any error is thrown as `start_interrupted` naming the journey.
    /// Followers of the log are woken once per start, after the attempt's transaction (or its
    /// failure), not after each of the two.
    /// `answer`'s statements run in the attempt's transaction, pipelined with its last statement.
    /// `tenant` (the caller's) is recorded on the journey and scopes the subject's reference; nil
    /// records none (the default tenant).
    public func start<Answer: Sendable>(
        _ valid: ValidatedStartJourney, actor: String, tenant: String? = nil,
        claim: @escaping @Sendable (JourneyID, PostgresConnection) throws -> Bool = { _, _ in true },
        answer: @escaping @Sendable (AttemptOutcome, PostgresConnection) throws -> PipelinedAnswer<Answer>
    ) async throws -> StartOutcome<Answer> {
        let journeyID = JourneyID(dependencies.ids().uuidString.lowercased())
        let metadata = metadata(actor: actor)
        let (vault, policy) = (dependencies.vault, dependencies.retryPolicy)
        let started: (AttemptTarget, JourneyState, Int64)? = try await StageTimer.measure(StartStage.startTransaction) {
            try await commands.transaction(notify: false) { context in
                guard try claim(journeyID, context.connection) else { return nil }
                let sealed = try context.measure(StartStage.seal) { try vault.seal(valid.subject, tenant: tenant, on: context.connection) }
                let start = valid.command(journeyID: journeyID, subject: sealed, retryPolicy: policy, tenant: tenant)
                // A journey id just drawn has no stream yet: nothing to load.
                let outcome = try context.execute([.start(start)], journey: journeyID, metadata: metadata,
                                                  known: (Journey.initialState, 0))
                guard let attempt = outcome.state.currentAttempt else {
                    throw EngineError(.inconsistentState, "a started journey has no attempt")
                }
                let target = AttemptTarget(
                    journeyID: journeyID, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                    environment: valid.environment, flow: valid.flow, purpose: valid.purpose, subject: valid.subject,
                    reference: sealed.reference, tenant: tenant)
                return (target, outcome.state, outcome.version)
            }
        }
        guard let (target, state, version) = started else { return .claimedElsewhere }
        do {
            return .answered(try await runAttempt(target, metadata: metadata, known: (state, version), pipelined: answer))
        } catch {
            commands.notifyAppended()
            throw EngineError(.startInterrupted, "the journey started but its first attempt was not recorded",
                              journeyID: journeyID, underlying: error)
        }
    }
}
