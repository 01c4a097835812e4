import Foundation
import JourneyDomain
import Observability
import Postgres

extension Journeys {
    /// Starts a journey once per `key`: seals the subject and records the start in one
    /// transaction, creates the first attempt's Unico process outside it, then records the
    /// outcome. With `processAtStart` false an SDK journey records only its start: the app's
    /// first token request makes the process.
    ///
    /// With a `key` (the caller's `Idempotency-Key`), the start is answered once: a start
    /// without a process writes the key with its outcome in its one transaction (sent with its
    /// `COMMIT`); a start that makes a process claims the key in the start's transaction and
    /// holds it under a renewed lease while Unico answers, then stores the outcome (or releases
    /// the key after a retryable one) in the transaction recording the attempt. A key that
    /// another request holds or held is answered from the key instead (``StartResult/replayed``):
    /// its stored outcome, its journey's state when that request died, or
    /// `idempotency_key_in_progress` / `idempotency_key_reused`. Neither adds a round trip.
    ///
    /// The start's transaction knows the new stream is empty and the record's knows it as the
    /// start left it (loaded again only after a version conflict), so neither loads it. Once the
    /// start is committed, any error is thrown as `start_interrupted` naming the journey (its key
    /// released for a retry). Followers of the log are woken once per start. `tenant` (the
    /// caller's) is recorded on the journey and scopes the subject's reference; nil records none.
    public func start(
        _ valid: ValidatedStartJourney, actor: String, tenant: String? = nil, processAtStart: Bool = true,
        key: IdempotencyKey? = nil
    ) async throws -> StartResult {
        let makesProcess = StartJourney.makesProcess(
            requested: processAtStart, notificationChannels: valid.subject.notificationChannels)
        let answerID = dependencies.ids()
        do {
            // While Unico makes the process the key is held under a renewed lease: if this process
            // dies, a retry takes the key over once the lease lapses (seconds, not minutes).
            let answer = try await StageTimer.measure(StartStage.lease) {
                try await keys.holding(makesProcess ? key : nil) {
                    try await startOnce(
                        valid, actor: actor, tenant: tenant, processAtStart: processAtStart, key: key, answerID: answerID)
                }
            }
            return StartResult(answer: answer, replayed: false, answerID: answerID)
        } catch let error where key != nil && (error is ClaimedElsewhere || StartKeys.isHeldElsewhere(error)) {
            guard let key else { throw error }
            return try await keys.replay(key) { try await recoverStart($0, actor: actor) }
        }
    }

    /// The answer `key` holds for a start the caller can no longer make (its body is refused
    /// now, e.g. a `deadline` that has passed): as for any replay; nil when no request recorded the key.
    public func replayStart(_ key: IdempotencyKey, actor: String) async throws -> StartResult? {
        guard try await keys.lookup(key) != nil else { return nil }
        return try await keys.replay(key) { try await recoverStart($0, actor: actor) }
    }

    /// The start itself; throws ``ClaimedElsewhere`` (or the key's unique violation) when another
    /// request holds `key`, with nothing started.
    private func startOnce(
        _ valid: ValidatedStartJourney, actor: String, tenant: String?, processAtStart: Bool, key: IdempotencyKey?,
        answerID: UUID
    ) async throws -> StartAnswer {
        let journeyID = JourneyID(dependencies.ids().uuidString.lowercased())
        let metadata = metadata(actor: actor)
        let (vault, policy, keys) = (dependencies.vault, dependencies.retryPolicy, keys)
        let step = try await StageTimer.measure(StartStage.startTransaction) {
            try await commands.transaction(notify: false) { context -> StartStep in
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
                    // The process waits for the app's token request: the key is written once, with
                    // this outcome; a key another request holds (or held) fails it, and the start.
                    let answer = StartAnswer.awaitingToken(
                        StartedJourney(
                            journeyID: journeyID, environment: valid.environment, startedAt: context.now,
                            firstTokenBy: outcome.state.continuationDeadline))
                    if let key, let storing = try StartKeys.storing(key, answer: answer, answerID: answerID) {
                        try context.connection.enqueue(storing)
                    }
                    return .answered(answer)
                }
                if let key {
                    // Rolled back with everything above when another request holds the key.
                    let claimed = try context.measure(StartStage.idempotency) {
                        try keys.claim(key, journeyID: journeyID, on: context.connection)
                    }
                    guard claimed else { throw ClaimedElsewhere() }
                }
                let target = AttemptTarget(
                    journeyID: journeyID, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
                    environment: valid.environment, flow: valid.flow, purpose: valid.purpose, subject: valid.subject,
                    reference: sealed.reference, tenant: tenant,
                    processLifetime: AttemptTarget.processLifetime(of: outcome.state))
                return .attempt(target, outcome.state, outcome.version)
            }
        }
        let (target, state, version): (AttemptTarget, JourneyState, Int64)
        switch step {
        case .answered(let answer):
            commands.notifyAppended()
            return answer
        case .attempt(let t, let s, let v): (target, state, version) = (t, s, v)
        }
        do {
            return try await runAttempt(target, metadata: metadata, known: (state, version)) { outcome in
                // The key's outcome is stored (or the key released) with the attempt's COMMIT.
                let answer = StartAnswer.attempt(outcome, deadline: valid.deadline)
                return PipelinedAnswer(
                    answer, statements: try key.map { [try StartKeys.finishing($0, answer: answer, answerID: answerID)] } ?? [])
            }
        } catch {
            commands.notifyAppended()
            // The journey exists but its outcome was not recorded: free the key for a retry, which
            // answers from the journey (when the database is back; until then the lease lapses).
            if let key { await keys.releaseSoon(key, journeyID: journeyID) }
            throw EngineError(
                .startInterrupted, "the journey started but its first attempt was not recorded",
                journeyID: journeyID, underlying: error)
        }
    }

    /// Answers a key taken over from a start that never answered, from its journey's current
    /// state: its current token (or the process Unico created for an attempt whose answer was
    /// lost, adopted), or why there is none: ended (final: the key keeps it) or not yet.
    func recoverStart(_ id: JourneyID, actor: String) async throws -> StartAnswer {
        do {
            let outcome = try await resumeToken(id, actor: actor)
            return .attempt(outcome, deadline: try await state(of: id).deadline)
        } catch let refusal as DomainError {
            if refusal.status.isTerminal || refusal.code == .attemptsExhausted || refusal.code == .deadlineReached {
                return .ended(id, refusal.status)
            }
            return .refused(id, refusal)
        }
    }

    /// The start's idempotency keys.
    var keys: StartKeys {
        StartKeys(database: commands.database, configuration: dependencies.idempotency)
    }
}

/// Thrown inside the start's transaction to roll it back when the caller's key is held elsewhere.
struct ClaimedElsewhere: Error {}

/// Where a start's first transaction left it.
private enum StartStep: Sendable {
    case answered(StartAnswer)
    case attempt(AttemptTarget, JourneyState, Int64)
}
