import Foundation

extension JourneyDecider {
    func decideIssueToken(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        switch state.status {
        case .started:
            return try newAttempt(trigger: .initial)
        case .retryScheduled:
            return try newAttempt(trigger: .tokenRequest)
        case .creatingProcess:
            throw error(
                .processCreationPending,
                "cannot issue a token while the journey is \(state.status.rawValue): "
                    + "the process of attempt \(current) is not created yet",
                attempt: current
            )
        case .processCreated, .tokenIssued, .captureOpened:
            guard let attempt = state.currentAttempt, let expiresAt = attempt.tokenExpiresAt else {
                throw invalidTransition(command)
            }
            if expiresAt.timeIntervalSince(now) >= JourneyTiming.minimumTokenRemaining {
                let issued = TokenIssued(
                    attempt: attempt.number,
                    occurredAt: now,
                    expiresAt: expiresAt,
                    reused: attempt.tokensIssued > 0
                )
                return [.tokenIssued(issued)]
            }
            return try newAttempt(trigger: .tokenRefresh)
        case .notStarted, .awaitingResult, .attemptFailed, .completed, .abandoned:
            throw invalidTransition(command)
        }
    }

    func decideExpireToken(attempt: Int, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        try requireCurrent(attempt, command)
        guard state.status.hasOutstandingToken, let current = state.currentAttempt,
            let expiresAt = current.tokenExpiresAt
        else {
            throw invalidTransition(command, attempt: attempt)
        }
        guard current.callbackAt == nil else {
            throw invalidTransition(command, attempt: attempt, because: "a callback was already received")
        }
        guard now >= expiresAt else {
            throw error(
                .tokenNotExpired,
                "cannot expire the token of attempt \(attempt) while the journey is \(state.status.rawValue): "
                    + "\(Int(expiresAt.timeIntervalSince(now).rounded(.up))) s of its lifetime remain",
                attempt: attempt
            )
        }
        let expired = TokenExpired(attempt: attempt, occurredAt: now, expiresAt: expiresAt, detectedBy: .timer)
        return [.tokenExpired(expired)] + failAttempt(attempt, reason: .tokenExpired())
    }
}
