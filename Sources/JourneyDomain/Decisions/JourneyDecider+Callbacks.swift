import Foundation

extension JourneyDecider {
    func decideCaptureOpened(attempt: Int, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        let target = try knownAttemptWithProcess(attempt, command)
        if attempt < current {
            return [.captureOpened(CaptureOpened(attempt: attempt, occurredAt: now, superseded: true))]
        }
        switch state.status {
        case .processCreated, .tokenIssued:
            return [.captureOpened(CaptureOpened(attempt: attempt, occurredAt: now))]
        case .captureOpened where target.captureOpenedAt != nil:
            return []
        default:
            throw invalidTransition(command, attempt: attempt)
        }
    }

    func decideCallback(
        attempt: Int,
        outcome: CallbackOutcome,
        command: JourneyCommand
    ) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        let target = try knownAttemptWithProcess(attempt, command)
        if case .success(let processID) = outcome, processID != target.processID {
            throw error(
                .processMismatch,
                "cannot record a callback while the journey is \(state.status.rawValue): process \(processID) "
                    + "is not the process of attempt \(attempt)",
                attempt: attempt
            )
        }
        if target.callbackOutcome == outcome { return [] }
        if attempt < current {
            return [.callbackReceived(CallbackReceived(attempt: attempt, occurredAt: now, outcome: outcome, superseded: true))]
        }
        let received = JourneyEvent.callbackReceived(CallbackReceived(attempt: attempt, occurredAt: now, outcome: outcome))
        switch state.status {
        case .processCreated, .tokenIssued, .captureOpened:
            guard case .error(let code) = outcome else { return [received] }
            guard code == .tokenExpired, let expiresAt = target.tokenExpiresAt else {
                return [received] + failAttempt(attempt, reason: .sdkError(code))
            }
            let expired = TokenExpired(attempt: attempt, occurredAt: now, expiresAt: expiresAt, detectedBy: .sdkCallback)
            return [received, .tokenExpired(expired)] + failAttempt(attempt, reason: .tokenExpired(sdkCode: code))
        case .retryScheduled, .retryAvailable, .awaitingResult:
            return [received]
        default:
            throw invalidTransition(command, attempt: attempt)
        }
    }

    /// A drop-off the app reported: the capture ended without a result; the attempt fails and the
    /// policy allows the next one at once (the user is there). Recorded only when the attempt was
    /// replaced or had already ended.
    func decideDropOff(attempt: Int, kind: AttemptFailureReason.Kind, command: JourneyCommand) throws(DomainError)
        -> [JourneyEvent]
    {
        try requireActive(command)
        let target = try knownAttemptWithProcess(attempt, command)
        let superseded = attempt < current
        let event: JourneyEvent =
            kind == .closedByUser
            ? .captureClosedByUser(CaptureClosedByUser(attempt: attempt, occurredAt: now, superseded: superseded))
            : .captureSessionTimedOut(CaptureSessionTimedOut(attempt: attempt, occurredAt: now, superseded: superseded))
        let already = kind == .closedByUser ? target.closedByUserAt : target.sessionTimedOutAt
        if already != nil { return [] }
        guard !superseded, state.status.hasOutstandingToken, target.callbackAt == nil else { return [event] }
        let reason: AttemptFailureReason = kind == .closedByUser ? .closedByUser : .sessionTimedOut
        return [event] + failAttempt(attempt, reason: reason)
    }

    /// Face inference took too long and the capture went on manually: recorded once per attempt
    /// while its capture is open (before its callback); the attempt goes on.
    func decideFaceInferenceTimedOut(attempt: Int, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        let target = try knownAttemptWithProcess(attempt, command)
        if target.faceInferenceTimedOutAt != nil { return [] }
        guard target.captureOpenedAt != nil, target.callbackAt == nil else {
            throw invalidTransition(command, attempt: attempt, because: "its capture is not open")
        }
        return [.faceInferenceTimedOut(FaceInferenceTimedOut(attempt: attempt, occurredAt: now))]
    }

    func decideWebhook(_ notice: WebhookNotice, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        guard state.status != .notStarted else { throw invalidTransition(command) }
        guard let target = state.attempt(processID: notice.processID) else {
            throw error(
                .unknownProcess,
                "cannot record a webhook while the journey is \(state.status.rawValue): "
                    + "process \(notice.processID) belongs to none of its attempts"
            )
        }
        let received = WebhookReceived(
            attempt: target.number,
            occurredAt: now,
            processID: notice.processID,
            state: notice.state,
            result: notice.result,
            lastEvent: notice.lastEvent,
            superseded: target.number < current
        )
        return [.webhookReceived(received)]
    }

    /// The attempt numbered `attempt`, which must exist and have a process.
    private func knownAttemptWithProcess(_ attempt: Int, _ command: JourneyCommand) throws(DomainError) -> AttemptState {
        guard let target = state.attempt(attempt) else {
            throw error(
                .unknownAttempt,
                "cannot \(command.action) for attempt \(attempt) while the journey is \(state.status.rawValue): "
                    + "it has \(current) attempt(s)",
                attempt: attempt
            )
        }
        guard target.processID != nil else {
            throw invalidTransition(command, attempt: attempt, because: "attempt \(attempt) has no process")
        }
        return target
    }
}
