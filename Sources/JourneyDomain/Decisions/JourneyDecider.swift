import Foundation

/// One decision in progress: the state, the rounded time and the caller's random unit.
struct JourneyDecider {
    let state: JourneyState
    let now: Date
    let randomUnit: Double

    func decide(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        switch command {
        case .start(let start):
            return try decideStart(start)
        case .recordProcessCreated(let creation):
            return try decideProcessCreated(creation)
        case .recordProcessCreationFailed(let attempt, let failure):
            return try decideProcessCreationFailed(attempt: attempt, failure: failure, command: command)
        case .issueToken:
            return try decideIssueToken(command)
        case .issueLink:
            return try decideIssueLink(command)
        case .recordCaptureClosedByUser(let attempt):
            return try decideDropOff(attempt: attempt, kind: .closedByUser, command: command)
        case .recordCaptureSessionTimedOut(let attempt):
            return try decideDropOff(attempt: attempt, kind: .sessionTimedOut, command: command)
        case .recordFaceInferenceTimedOut(let attempt):
            return try decideFaceInferenceTimedOut(attempt: attempt, command: command)
        case .abandonAbsent(let afterAttempt):
            return try decideAbandonAbsent(afterAttempt: afterAttempt, command: command)
        case .recordCaptureOpened(let attempt):
            return try decideCaptureOpened(attempt: attempt, command: command)
        case .recordCallback(let attempt, let outcome):
            return try decideCallback(attempt: attempt, outcome: outcome, command: command)
        case .recordWebhook(let notice):
            return try decideWebhook(notice, command: command)
        case .recordResult(let attempt, let snapshot):
            return try decideResult(attempt: attempt, snapshot: snapshot, command: command)
        case .expireToken(let attempt):
            return try decideExpireToken(attempt: attempt, command: command)
        case .retry(let afterAttempt):
            return try decideRetry(afterAttempt: afterAttempt, command: command)
        case .abandonAtDeadline:
            return try decideAbandonAtDeadline(command)
        case .abandonAtMaxAge:
            return try decideAbandonAtMaxAge(command)
        case .abandon(let reason):
            try requireActive(command)
            return [.journeyAbandoned(JourneyAbandoned(attempt: current, occurredAt: now, reason: reason))]
        case .cancel(let cancellation):
            return try decideCancel(cancellation, command: command)
        case .recordSubjectErased(let erasure):
            return try decideSubjectErased(erasure, command: command)
        case .recordDisclosure(let disclosure):
            return try decideDisclosure(disclosure, command: command)
        }
    }

    /// Number of the current attempt; 0 before the first.
    var current: Int { state.currentAttemptNumber }

    func error(
        _ code: DomainError.Code, _ message: String, attempt: Int? = nil,
        retryAfter: TimeInterval? = nil
    ) -> DomainError {
        DomainError(
            code: code, message: message, status: state.status, attempt: attempt, retryAfter: retryAfter,
            abandonReason: state.status == .abandoned ? state.abandonReason?.kind : nil)
    }

    func invalidTransition(_ command: JourneyCommand, attempt: Int? = nil, because detail: String? = nil) -> DomainError {
        var suffix = detail.map { "; \($0)" } ?? ""
        if state.status == .abandoned, state.abandonReason?.kind == .cancelled { suffix += "; it was cancelled" }
        return error(
            .invalidTransition,
            "cannot \(command.action) while the journey is \(state.status.rawValue)\(suffix)",
            attempt: attempt
        )
    }

    /// Refuses commands on journeys that have not started or have ended.
    func requireActive(_ command: JourneyCommand) throws(DomainError) {
        guard state.status != .notStarted, !state.status.isTerminal else { throw invalidTransition(command) }
    }

    /// Refuses worker and service commands that name an attempt other than the current one.
    func requireCurrent(_ attempt: Int, _ command: JourneyCommand) throws(DomainError) {
        guard attempt == current else {
            throw error(
                .staleAttempt,
                "cannot \(command.action) for attempt \(attempt): the current attempt is \(current) "
                    + "and the journey is \(state.status.rawValue)",
                attempt: attempt
            )
        }
    }

    /// The events that close failed attempt `attempt`: `AttemptFailed`, then `JourneyAbandoned` if the policy gives up.
    func failAttempt(_ attempt: Int, reason: AttemptFailureReason) -> [JourneyEvent] {
        switch state.retryPolicy.nextRetry(after: reason, attempt: attempt, now: now, randomUnit: randomUnit) {
        case .retry(let at):
            return [.attemptFailed(AttemptFailed(attempt: attempt, occurredAt: now, reason: reason, retryAt: at))]
        case .giveUp(let giveUp):
            return [
                .attemptFailed(AttemptFailed(attempt: attempt, occurredAt: now, reason: reason, retryAt: nil)),
                .journeyAbandoned(
                    JourneyAbandoned(attempt: attempt, occurredAt: now, reason: AbandonReason(giveUp: giveUp, failure: reason))
                ),
            ]
        }
    }

    /// Records the intent of attempt n+1, if the journey's policy allows it.
    func newAttempt(trigger: AttemptTrigger) throws(DomainError) -> [JourneyEvent] {
        try requireBeforeDeadline("start attempt \(current + 1)")
        let next = current + 1
        let maximum = state.retryPolicy.maximumAttempts
        guard next <= maximum else {
            throw error(
                .attemptsExhausted,
                "cannot start attempt \(next) while the journey is \(state.status.rawValue): "
                    + "the retry policy allows \(maximum) attempt(s)",
                attempt: current
            )
        }
        let reference = ProcessCreationRequested.unicoClientReference(
            journeyID: state.journeyID ?? JourneyID(""),
            attempt: next
        )
        return [
            .processCreationRequested(
                ProcessCreationRequested(attempt: next, occurredAt: now, unicoClientReference: reference, trigger: trigger)
            )
        ]
    }
}
