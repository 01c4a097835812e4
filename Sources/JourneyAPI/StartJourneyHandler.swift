import AccessControl
import Cryptography
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Observability
import Postgres

/// `POST /v1/journeys`: validates the subject and starts the journey through the engine. By
/// default an SDK journey makes no Unico call: its answer carries the client token and the app's
/// first `POST …/token` makes attempt 1's process; `"createProcess": "now"` (and every link
/// journey) makes it with the start, whose answer then carries the `webAppToken`. With
/// the idempotency claim in the start's transaction and the answer stored (or, when it is
/// retryable, the key released) in the transaction that records the first attempt's outcome,
/// pipelined with that transaction's last statement.
///
/// Every answer about the started journey, problems included, names it as `journeyId`.
struct StartJourneyHandler: Sendable {
    let authenticator: RequestAuthenticator
    let journeys: Journeys
    let idempotency: IdempotencyStore
    let dependencies: JourneyDependencies

    /// Handles a start, timing its stages (``StartStage``) when ``JourneyDependencies/startStages`` is set.
    func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let sink = dependencies.startStages else { return try await start(request) }
        let timer = StageTimer()
        defer { sink(timer.stages) }
        return try await StageTimer.$current.withValue(timer) {
            try await timer.measure(StartStage.other) { try await start(request) }
        }
    }

    private func start(_ request: HTTPRequest) async throws -> HTTPResponse {
        let principal = try await StageTimer.measure(StartStage.authenticate) {
            try await authenticator.apiKey(request, scope: .journeysWrite)
        }
        let (valid, claim, processAtStart): (ValidatedStartJourney, IdempotencyStore.Claim?, Bool)
        do {
            (valid, claim, processAtStart) = try StageTimer.measure(StartStage.validate) {
                try Self.validate(
                    request, principal: principal, policy: self.journeys.dependencies.retryPolicy,
                    now: dependencies.clock())
            }
        } catch let refusal as Problem where refusal.status == .unprocessableContent {
            return try await replay(request, principal: principal, refusedWith: refusal)
        }
        let (tokens, lease, journeys, timer) = (
            dependencies.clientTokens, idempotency.configuration.lease, journeys, StageTimer.current
        )
        let makesProcess = StartJourney.makesProcess(
            requested: processAtStart,
            notificationChannels: valid.subject.notificationChannels)
        let outcome: StartOutcome<HTTPResponse>
        do {
            // While Unico makes the process, the key is held under a lease renewed while the start
            // runs: if this process dies, a retry takes the key over once the lease lapses
            // (seconds, not minutes). A start without a process needs none (see `awaitingToken`).
            outcome = try await StageTimer.measure(StartStage.lease) {
                try await idempotency.holding(makesProcess ? claim : nil) {
                    try await journeys.start(
                        valid, actor: principal.actor, tenant: principal.tenant, processAtStart: processAtStart,
                        claim: { journeyID, connection in
                            guard let claim else { return true }
                            return try StageTimer.measure(StartStage.idempotency, in: timer) {
                                try IdempotencyStore.claim(claim, journeyID: journeyID.rawValue, lease: lease, on: connection)
                            }
                        },
                        awaitingToken: { started in
                            // No process yet: the key is written once, answered, with the start, in its
                            // transaction; a key another request holds (or held) fails that write and the
                            // start, which then replays (see `IdempotencyStore.storing`).
                            let response = try StageTimer.measure(StartStage.answer, in: timer) {
                                try Self.response(started, tokens: tokens)
                            }
                            let storing = claim.flatMap {
                                IdempotencyStore.storing($0, journeyID: started.journeyID.rawValue, response: response)
                            }
                            return PipelinedAnswer(response, statements: storing.map { [$0] } ?? [])
                        },
                        answer: { outcome, _ in
                            // The key's answer is stored in the attempt's pipeline (see `PipelinedAnswer`).
                            let response = try StageTimer.measure(StartStage.answer, in: timer) {
                                try Self.response(outcome, tokens: tokens, until: valid.deadline)
                            }
                            let finishing = claim.map {
                                IdempotencyStore.finishing($0, journeyID: outcome.journeyID.rawValue, response: response)
                            }
                            return PipelinedAnswer(response, statements: finishing.map { [$0] } ?? [])
                        })
                }
            }
        } catch let error as PostgresError where claim != nil && IdempotencyStore.isHeldElsewhere(error) {
            outcome = .claimedElsewhere
        } catch let error as EngineError where error.code == .startInterrupted {
            // The journey exists but its answer was not recorded: free the key for a retry, which
            // answers from the journey (when the database is back; until then the lease lapses).
            if let claim, let journeyID = error.journeyID {
                await idempotency.releaseSoon(claim, journeyID: journeyID.rawValue)
            }
            throw error
        }
        switch outcome {
        case .answered(let response):
            return response
        case .claimedElsewhere:
            guard let claim else { throw Problem.internalError() }
            return try await idempotency.replay(
                claim, wait: dependencies.idempotencyWait,
                recover: recovery(actor: principal.actor))
        }
    }

    /// Answers a released or lapsed key like a first start, from the journey's current state: its
    /// current token (or a fresh attempt, or the process Unico created for an attempt whose
    /// answer was lost, adopted) with a new client token, or the problem (with `journeyId`) of
    /// why there is none yet, e.g. 409 `process_creation_pending` while Unico holds no process
    /// for the attempt's unresolved Create Process (the workers reconcile it). A journey that
    /// ended, or has no attempt left, answers 410 `journey_ended` (final: the key keeps it), never
    /// a 409 that a client following `Retry-After` would retry forever.
    func recovery(actor: String) -> IdempotencyStore.Recovery {
        let (journeys, tokens) = (journeys, dependencies.clientTokens)
        return { journeyID in
            do {
                let outcome = try await journeys.resumeToken(JourneyID(journeyID), actor: actor)
                let deadline = try await journeys.state(of: JourneyID(journeyID)).deadline
                return try Self.response(outcome, tokens: tokens, until: deadline)
            } catch let refusal as DomainError {
                if refusal.status.isTerminal || refusal.code == .attemptsExhausted || refusal.code == .deadlineReached {
                    return Problem.journeyEnded(refusal.status).about(journey: journeyID).response
                }
                var problem = Problem.domain(refusal).about(journey: journeyID)
                if refusal.code == .processCreationPending { problem.headers["Retry-After"] = "1" }
                return problem.response
            }
        }
    }

    /// The validated start (its attempt budget within the deployment's `policy`, its deadline
    /// after `now`), the request's idempotency claim and whether attempt 1's process is made now;
    /// 415 or 422 problems otherwise.
    static func validate(_ request: HTTPRequest, principal: Principal, policy: RetryPolicy, now: Date)
        throws -> (ValidatedStartJourney, IdempotencyStore.Claim?, processAtStart: Bool)
    {
        try request.requireMediaType()
        let body: StartJourneyRequest = try request.decode()
        var valid: ValidatedStartJourney
        do {
            valid = try body.input.validated()
        } catch {
            throw Problem.validation(error)
        }
        try body.checkDelivery()
        (valid.maximumAttempts, valid.deadline) = try body.limits(policy: policy, now: now)
        let processAtStart = try body.processAtStart()
        return (valid, try claim(request, principal: principal), processAtStart)
    }

    /// 201 for a journey whose process waits for the app's token request: the client token, no `webAppToken`.
    static func response(_ started: StartedJourney, tokens: ClientTokenIssuer) throws -> HTTPResponse {
        guard let uuid = UUID(uuidString: started.journeyID.rawValue) else { throw Problem.internalError() }
        let (token, expiresAt) = try JourneyClientToken.issue(
            tokens, journeyID: uuid, now: started.startedAt,
            until: started.firstTokenBy)
        let body = TokenResponse(
            journeyId: started.journeyID.rawValue, attempt: nil, webAppToken: nil, webAppTokenExpiresAt: nil,
            environment: started.environment.rawValue, clientToken: token, clientTokenExpiresAt: expiresAt,
            status: JourneyStatus.started.rawValue, firstTokenBy: started.firstTokenBy)
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }

    /// 201 with the token and a client token (never past the journey's `until`, its deadline), or
    /// the problem of a failed creation naming the journey.
    static func response(_ outcome: AttemptOutcome, tokens: ClientTokenIssuer, until: Date?) throws -> HTTPResponse {
        let issued: IssuedToken
        switch outcome.result {
        case .failure(let error): return Problem.engine(error).about(journey: outcome.journeyID.rawValue).response
        case .success(let value): issued = value
        }
        let (journeyID, now) = (outcome.journeyID, outcome.decidedAt)
        guard let uuid = UUID(uuidString: journeyID.rawValue) else { throw Problem.internalError() }
        let (token, expiresAt) = try JourneyClientToken.issue(tokens, journeyID: uuid, now: now, until: until)
        let body = TokenResponse(
            journeyId: journeyID.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
            webAppTokenExpiresAt: issued.expiresAt, environment: outcome.environment.rawValue,
            clientToken: token, clientTokenExpiresAt: expiresAt)
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
