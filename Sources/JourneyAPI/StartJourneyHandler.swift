import AccessControl
import Cryptography
import Foundation
import HTTPServer
import JourneyDomain
import JourneyEngine
import Observability
import Postgres

/// `POST /v1/journeys`: validates the subject and starts the journey through the engine, then
/// renders the engine's answer, fresh or replayed from the request's `Idempotency-Key` (the
/// engine owns the key: see `Journeys.start`). By default an SDK journey makes no Unico call: its
/// answer carries the client token and the app's first `POST …/token` makes attempt 1's process;
/// `"createProcess": "now"` (and every link journey) makes it with the start, whose answer then
/// carries the `webAppToken`.
///
/// Every answer about the started journey, problems included, names it as `journeyId`; a replayed
/// one says `Idempotent-Replayed: true` and carries a client token issued afresh for the same
/// journey and expiry.
struct StartJourneyHandler: Sendable {
    let authenticator: RequestAuthenticator
    let journeys: Journeys
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
        let (valid, key, processAtStart): (ValidatedStartJourney, IdempotencyKey?, Bool)
        do {
            (valid, key, processAtStart) = try StageTimer.measure(StartStage.validate) {
                try Self.validate(
                    request, principal: principal, policy: self.journeys.dependencies.retryPolicy,
                    now: dependencies.clock())
            }
        } catch let refusal as Problem where refusal.status == .unprocessableContent {
            // A refused body whose key is recorded gets the key's answer (its `deadline` may have
            // passed since, or the deployment's limits changed); validation comes before the
            // claim, so a body refused the first time never recorded its key.
            guard let key = try? Self.key(request, principal: principal),
                let replayed = try await Self.idempotent({ try await journeys.replayStart(key, actor: principal.actor) })
            else { throw refusal }
            return try render(replayed)
        }
        let result = try await Self.idempotent {
            try await journeys.start(
                valid, actor: principal.actor, tenant: principal.tenant, processAtStart: processAtStart, key: key)
        }
        return try StageTimer.measure(StartStage.answer) { try render(result) }
    }

    /// The HTTP answer of the engine's start answer.
    func render(_ result: StartResult) throws -> HTTPResponse {
        let tokens = dependencies.clientTokens
        var response: HTTPResponse
        switch result.answer {
        case .awaitingToken(let started): response = try Self.response(started, tokens: tokens, tokenID: result.answerID)
        case .attempt(let outcome, let deadline):
            response = try Self.response(outcome, tokens: tokens, until: deadline, tokenID: result.answerID)
        case .ended(let id, let status): response = Problem.journeyEnded(status).about(journey: id.rawValue).response
        case .refused(let id, let refusal): response = Problem.domain(refusal).about(journey: id.rawValue).response
        }
        if result.replayed { response.headers["Idempotent-Replayed"] = "true" }
        return response
    }

    /// Runs `body`, turning the engine's idempotency refusals into their problems: 422
    /// `idempotency_key_reused` naming the header, 409 `idempotency_key_in_progress` (with
    /// `journeyId` and `Retry-After: 1`).
    static func idempotent<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as EngineError where error.code == .idempotencyKeyReused {
            throw Problem(
                status: .unprocessableContent, code: "idempotency_key_reused",
                detail: "This Idempotency-Key was used with another request body.",
                extra: ["field": "Idempotency-Key"])
        } catch let error as EngineError where error.code == .idempotencyKeyInProgress {
            throw Problem(
                status: .conflict, code: "idempotency_key_in_progress",
                detail: "The first request with this Idempotency-Key has not finished; retry later.",
                extra: error.journeyID.map { ["journeyId": $0.rawValue] } ?? [:], headers: ["Retry-After": "1"])
        }
    }

    /// The validated start (its attempt budget within the deployment's `policy`, its deadline
    /// after `now`), the request's idempotency key and whether attempt 1's process is made now;
    /// 415 or 422 problems otherwise.
    static func validate(_ request: HTTPRequest, principal: Principal, policy: RetryPolicy, now: Date)
        throws -> (ValidatedStartJourney, IdempotencyKey?, processAtStart: Bool)
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
        return (valid, try key(request, principal: principal), processAtStart)
    }

    /// 201 for a journey whose process waits for the app's token request: the client token, no `webAppToken`.
    static func response(_ started: StartedJourney, tokens: ClientTokenIssuer, tokenID: UUID) throws -> HTTPResponse {
        guard let uuid = UUID(uuidString: started.journeyID.rawValue) else { throw Problem.internalError() }
        let (token, expiresAt) = try JourneyClientToken.issue(
            tokens, journeyID: uuid, now: started.startedAt, until: started.firstTokenBy, tokenID: tokenID)
        let body = TokenResponse(
            journeyId: started.journeyID.rawValue, attempt: nil, webAppToken: nil, webAppTokenExpiresAt: nil,
            environment: started.environment.rawValue, clientToken: token, clientTokenExpiresAt: expiresAt,
            status: JourneyStatus.started.rawValue, firstTokenBy: started.firstTokenBy)
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }

    /// 201 with the token and a client token (never past the journey's `until`, its deadline; its
    /// `jti` the answer's id), or the problem of a failed creation naming the journey.
    static func response(_ outcome: AttemptOutcome, tokens: ClientTokenIssuer, until: Date?, tokenID: UUID) throws -> HTTPResponse
    {
        let issued: IssuedToken
        switch outcome.result {
        case .failure(let error): return Problem.engine(error).about(journey: outcome.journeyID.rawValue).response
        case .success(let value): issued = value
        }
        let (journeyID, now) = (outcome.journeyID, outcome.decidedAt)
        guard let uuid = UUID(uuidString: journeyID.rawValue) else { throw Problem.internalError() }
        let (token, expiresAt) = try JourneyClientToken.issue(tokens, journeyID: uuid, now: now, until: until, tokenID: tokenID)
        let body = TokenResponse(
            journeyId: journeyID.rawValue, attempt: issued.attempt, webAppToken: issued.webAppToken,
            webAppTokenExpiresAt: issued.expiresAt, environment: outcome.environment.rawValue,
            clientToken: token, clientTokenExpiresAt: expiresAt)
        return try HTTPResponse.json(body, status: .created, encoder: TokenResponse.encoder)
    }

    /// The request's idempotency key, if it sent an `Idempotency-Key`.
    static func key(_ request: HTTPRequest, principal: Principal) throws -> IdempotencyKey? {
        guard let key = request.headers["Idempotency-Key"] else { return nil }
        guard IdempotencyKey.isValid(key) else {
            throw Problem.validationFailed(
                field: "Idempotency-Key",
                detail: "Idempotency-Key must be 1 to \(IdempotencyKey.maximumLength) printable ASCII characters.")
        }
        return IdempotencyKey(scope: principal.keyID, key: key, requestHash: SHA256.hash(request.body))
    }
}
