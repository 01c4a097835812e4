import Foundation
import JourneyDomain
import Observability
import Postgres

extension Journeys {
    /// Starts a journey: seals the subject and records the start (after `claim`) in one
    /// transaction, creates the first attempt's Unico process outside it, then records the
    /// outcome, with `answer` run inside that last transaction. With `processAtStart` false an
    /// SDK journey records only its start, and `awaitingToken`'s answer is given (its statements
    /// run) in the start's transaction: the app's first token request makes the process.
    ///
    /// The start's transaction knows the new stream is empty and the record's knows it as the
    /// start left it (loaded again only after a version conflict), so neither loads it.
    ///
    /// `claim` runs in the start's transaction, with the new journey's id, when the start makes a
    /// process (its key must be held while Unico answers); false (another request holds the
    /// caller's idempotency key) starts nothing and returns `.claimedElsewhere`. A start without a
    /// process is one transaction: its caller stores the key with the answer (`awaitingToken`'s
    /// statements), where a key another request holds fails the whole start.
    /// Once the start is committed, any error is thrown as `start_interrupted` naming the journey.
    /// Followers of the log are woken once per start, after the attempt's transaction (or its
    /// failure), not after each of the two.
    /// `answer`'s (and `awaitingToken`'s) statements run in the last transaction, sent with its `COMMIT`.
    /// `tenant` (the caller's) is recorded on the journey and scopes the subject's reference; nil
    /// records none (the default tenant).
    public func start<Answer: Sendable>(
        _ valid: ValidatedStartJourney, actor: String, tenant: String? = nil, processAtStart: Bool = true,
        claim: @escaping @Sendable (JourneyID, PostgresConnection) throws -> Bool = { _, _ in true },
        awaitingToken: @escaping @Sendable (StartedJourney) throws -> PipelinedAnswer<Answer> = { _ in
            throw EngineError(.inconsistentState, "a start without a process has no answer")
        },
        answer: @escaping @Sendable (AttemptOutcome, PostgresConnection) throws -> PipelinedAnswer<Answer>
    ) async throws -> StartOutcome<Answer> {
        let journeyID = JourneyID(dependencies.ids().uuidString.lowercased())
        let metadata = metadata(actor: actor)
        let (vault, policy) = (dependencies.vault, dependencies.retryPolicy)
        let step: StartStep<Answer>
        do {
            step = try await StageTimer.measure(StartStage.startTransaction) {
                try await commands.transaction(notify: false) { context in
                    let sealed = try context.measure(StartStage.seal) {
                        try vault.seal(valid.subject, tenant: tenant, on: context.connection)
                    }
                    let start = valid.command(
                        journeyID: journeyID, subject: sealed, retryPolicy: policy, tenant: tenant,
                        processAtStart: processAtStart)
                    // A journey id just drawn has no stream yet: nothing to load, and nobody else can
                    // append to it, so the append leaves with the next statement (the claim) or COMMIT.
                    let outcome = try context.enqueue(
                        [.start(start)], journey: journeyID, metadata: metadata,
                        known: (Journey.initialState, 0))
                    guard let attempt = outcome.state.currentAttempt else {
                        // The process waits for the app's token request: answer now, in this transaction.
                        let started = StartedJourney(
                            journeyID: journeyID, environment: valid.environment, startedAt: context.now,
                            firstTokenBy: outcome.state.continuationDeadline)
                        let answered = try awaitingToken(started)
                        try Self.enqueue(answered.statements, on: context.connection)
                        return .answered(answered.value)
                    }
                    // Rolled back with everything above when another request holds the key.
                    guard try claim(journeyID, context.connection) else { throw ClaimedElsewhere() }
                    let target = AttemptTarget(
                        journeyID: journeyID, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                        environment: valid.environment, flow: valid.flow, purpose: valid.purpose, subject: valid.subject,
                        reference: sealed.reference, tenant: tenant,
                        processLifetime: AttemptTarget.processLifetime(of: outcome.state))
                    return .attempt(target, outcome.state, outcome.version)
                }
            }
        } catch is ClaimedElsewhere {
            return .claimedElsewhere
        }
        let (target, state, version): (AttemptTarget, JourneyState, Int64)
        switch step {
        case .answered(let value):
            commands.notifyAppended()
            return .answered(value)
        case .attempt(let t, let s, let v): (target, state, version) = (t, s, v)
        }
        do {
            return .answered(try await runAttempt(target, metadata: metadata, known: (state, version), pipelined: answer))
        } catch {
            commands.notifyAppended()
            throw EngineError(
                .startInterrupted, "the journey started but its first attempt was not recorded",
                journeyID: journeyID, underlying: error)
        }
    }
}

/// Thrown inside the start's transaction to roll it back when the caller's key is held elsewhere.
private struct ClaimedElsewhere: Error {}

/// Where a start's first transaction left it.
private enum StartStep<Answer: Sendable>: Sendable {
    case answered(Answer)
    case attempt(AttemptTarget, JourneyState, Int64)
}
