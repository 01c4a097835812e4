import Foundation

extension JourneyState {
    /// The state after `event`; total and pure: events for unknown attempts change only the version.
    /// A disclosure (a read) changes only the version, not `updatedAt`.
    public func applying(_ event: JourneyEvent) -> JourneyState {
        var next = self
        next.version += 1
        if case .personalDataDisclosed = event { return next }
        next.updatedAt = event.occurredAt
        next.apply(event)
        return next
    }

    private mutating func apply(_ event: JourneyEvent) {
        switch event {
        case .journeyStarted(let e):
            status = .started
            journeyID = e.journeyID
            environment = e.environment
            flow = e.flow
            purpose = e.purpose
            subject = e.subject
            clientReference = e.clientReference
            tenant = e.tenant
            retryPolicy = e.retryPolicy
            startedAt = e.occurredAt
            deadline = e.deadline
        case .processCreationRequested(let e):
            guard e.attempt == attempts.count + 1 else { return }
            if !attempts.isEmpty { attempts[attempts.count - 1].supersededAt = e.occurredAt }
            attempts.append(
                AttemptState(
                    number: e.attempt,
                    unicoClientReference: e.unicoClientReference,
                    trigger: e.trigger,
                    requestedAt: e.occurredAt
                )
            )
            status = .creatingProcess
        case .processCreated(let e):
            updateAttempt(e.attempt) {
                $0.processID = e.processID
                $0.processCreatedAt = e.occurredAt
                $0.webAppToken = e.webAppToken
                $0.processToken = e.processToken
                $0.link = e.link
                $0.tokenExpiresAt = e.tokenExpiresAt
            }
            if isCurrent(e.attempt), status == .creatingProcess { status = .processCreated }
        case .processCreationFailed(let e):
            updateAttempt(e.attempt) {
                $0.creationFailedAt = e.occurredAt
                $0.creationFailure = e.failure
            }
        case .tokenIssued(let e):
            updateAttempt(e.attempt) {
                $0.firstTokenIssuedAt = $0.firstTokenIssuedAt ?? e.occurredAt
                $0.lastTokenIssuedAt = e.occurredAt
                $0.tokensIssued += 1
            }
            if isCurrent(e.attempt), status.hasOutstandingToken { status = .tokenIssued }
        case .captureOpened(let e):
            updateAttempt(e.attempt) { $0.captureOpenedAt = $0.captureOpenedAt ?? e.occurredAt }
            if isCurrent(e.attempt), status == .processCreated || status == .tokenIssued { status = .captureOpened }
        case .callbackReceived(let e):
            applyCallback(e)
        case .webhookReceived(let e):
            webhooksReceived += 1
            updateAttempt(e.attempt) { $0.webhookAt = $0.webhookAt ?? e.occurredAt }
            if learnsLateResults {
                // Announced after the journey was given up: fetched all the same.
                updateAttempt(e.attempt) {
                    guard $0.processID != nil, $0.awaitingResultSince == nil, $0.resultFetchedAt == nil else { return }
                    $0.awaitingResultSince = e.occurredAt
                    $0.nextFetchAt = e.occurredAt
                }
            } else if isCurrent(e.attempt), !e.superseded {
                awaitResult(attempt: e.attempt, since: e.occurredAt)
            } else {
                awaitEarlierResult(attempt: e.attempt, since: e.occurredAt)
            }
        case .resultPending(let e):
            updateAttempt(e.attempt) {
                $0.pendingFetches = e.pendingFetches
                $0.nextFetchAt = e.nextFetchAt
                $0.processState = e.processState
            }
        case .resultFetched(let e):
            updateAttempt(e.attempt) {
                $0.resultFetchedAt = e.occurredAt
                $0.processState = e.processState
                $0.processResult = e.processResult
                $0.nextFetchAt = nil
            }
        case .tokenExpired(let e):
            updateAttempt(e.attempt) { $0.tokenExpiredAt = e.occurredAt }
        case .attemptFailed(let e):
            updateAttempt(e.attempt) {
                $0.failedAt = e.occurredAt
                $0.failureReason = e.reason
                $0.retryAt = e.retryAt
                $0.nextFetchAt = nil
            }
            guard isCurrent(e.attempt) else { return }
            lastFailure = e.reason
            if let code = e.reason.sdkCode { lastErrorCode = code }
            status = e.retryAt == nil ? .attemptFailed : .retryScheduled
        case .journeyCompleted(let e):
            status = .completed
            outcome = e.outcome
            humanToken = e.humanToken
            completedAt = e.occurredAt
        case .journeyAbandoned(let e):
            status = .abandoned
            abandonReason = e.reason
            abandonedAt = e.occurredAt
        case .retryAllowed(let e):
            updateAttempt(e.attempt) {
                $0.retryAllowedAt = e.occurredAt
                $0.abandonAt = e.abandonAt
            }
            if isCurrent(e.attempt), status == .retryScheduled { status = .retryAvailable }
        case .captureClosedByUser(let e):
            updateAttempt(e.attempt) { $0.closedByUserAt = $0.closedByUserAt ?? e.occurredAt }
        case .captureSessionTimedOut(let e):
            updateAttempt(e.attempt) { $0.sessionTimedOutAt = $0.sessionTimedOutAt ?? e.occurredAt }
        case .linkIssued(let e):
            updateAttempt(e.attempt) { $0.linkIssuedAt = $0.linkIssuedAt ?? e.occurredAt }
        case .subjectErased(let e):
            subjectErasedAt = e.erasedAt
        case .personalDataDisclosed:
            break
        case .journeyCancelled:
            break  // the `JourneyAbandoned` of the same append ends the journey
        case .attemptReplaced:
            break  // the `ProcessCreationRequested` of the same append supersedes the attempt
        case .faceInferenceTimedOut(let e):
            updateAttempt(e.attempt) { $0.faceInferenceTimedOutAt = $0.faceInferenceTimedOutAt ?? e.occurredAt }
        }
    }

    private mutating func applyCallback(_ e: CallbackReceived) {
        updateAttempt(e.attempt) {
            if $0.callbackAt == nil {
                $0.callbackAt = e.occurredAt
                $0.callbackOutcome = e.outcome
            }
        }
        guard isCurrent(e.attempt), !e.superseded else {
            supersededCallbacks += 1
            if case .success = e.outcome { awaitEarlierResult(attempt: e.attempt, since: e.occurredAt) }
            return
        }
        switch e.outcome {
        case .success:
            awaitResult(attempt: e.attempt, since: e.occurredAt)
        case .error(let code):
            lastErrorCode = code
        }
    }

    /// Marks an earlier attempt's capture as ended with a result to fetch; the journey's status
    /// stays with its current attempt.
    private mutating func awaitEarlierResult(attempt number: Int, since date: Date) {
        guard !status.isTerminal, number < attempts.count else { return }
        updateAttempt(number) {
            guard $0.processID != nil, $0.awaitingResultSince == nil, $0.resultFetchedAt == nil else { return }
            $0.awaitingResultSince = date
            $0.nextFetchAt = date
        }
    }

    /// Moves the current attempt to awaiting its result, unless the journey is past that point.
    private mutating func awaitResult(attempt number: Int, since date: Date) {
        guard status.hasOutstandingToken || status == .retryScheduled || status == .retryAvailable else { return }
        status = .awaitingResult
        updateAttempt(number) {
            $0.awaitingResultSince = date
            $0.nextFetchAt = date
            $0.retryAt = nil
        }
    }

    private func isCurrent(_ attempt: Int) -> Bool {
        attempt >= 1 && attempt == attempts.count
    }

    private mutating func updateAttempt(_ number: Int, _ change: (inout AttemptState) -> Void) {
        guard number >= 1, number <= attempts.count else { return }
        change(&attempts[number - 1])
    }
}
