import Foundation

extension JourneyDecider {
    /// One token per capture: the current attempt's token is handed out again only while its
    /// capture has not been opened (a double tap, or two racing requests, are one capture) and at
    /// least 60 s of it remain; once the capture was opened or ended, or a retry is allowed, the
    /// request starts a new attempt (a fresh process) if the policy allows.
    ///
    /// The first hand-out and the first reuse of an attempt's token are recorded; later reuses
    /// decide no event (the caller hands out the token from the state), so a holder of the client
    /// token cannot grow the log.
    func decideIssueToken(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireBeforeDeadline("issue a token")
        switch state.status {
        case .started:
            return try newAttempt(trigger: .initial)
        case .retryScheduled, .retryAvailable:
            // The user is there: the app need not wait for the workers' back-off (Unico's own
            // `Retry-After` pauses the client's rate limiter); the budget still applies.
            return try newAttempt(trigger: .tokenRequest)
        case .creatingProcess:
            throw error(
                .processCreationPending,
                "cannot issue a token while the journey is \(state.status.rawValue): "
                    + "the process of attempt \(current) is not created yet",
                attempt: current
            )
        case .processCreated, .tokenIssued:
            guard let attempt = state.currentAttempt, let expiresAt = state.webAppTokenExpiry(of: attempt) else {
                throw invalidTransition(command)
            }
            guard expiresAt.timeIntervalSince(now) >= JourneyTiming.minimumTokenRemaining else {
                // A link journey lives on its link: a new process would notify the person again.
                if state.isLinkJourney {
                    throw invalidTransition(command, because: "a link journey is captured through its link (GET …/link)")
                }
                return try replacing(attempt.number, reason: .tokenRefresh, trigger: .tokenRefresh)
            }
            guard !attempt.tokenReuseRecorded else { return [] }
            let issued = TokenIssued(
                attempt: attempt.number,
                occurredAt: now,
                expiresAt: expiresAt,
                reused: attempt.tokensIssued > 0
            )
            return [.tokenIssued(issued)]
        case .captureOpened:
            // The opened capture keeps its process: a result that still arrives for it is fetched.
            return try replacing(current, reason: .newCapture, trigger: .tokenRequest)
        case .awaitingResult:
            throw invalidTransition(command, because: "the capture ended and its result is being fetched")
        case .notStarted, .attemptFailed, .completed, .abandoned:
            throw invalidTransition(command)
        }
    }

    /// A new attempt in place of `attempt`, which ends without failing or expiring: its
    /// `AttemptReplaced` comes first, so every attempt ending without a result has one ending event.
    private func replacing(_ attempt: Int, reason: AttemptReplaced.Reason, trigger: AttemptTrigger) throws(DomainError)
        -> [JourneyEvent]
    {
        let next = try newAttempt(trigger: trigger)
        let replaced = AttemptReplaced(attempt: attempt, occurredAt: now, replacedBy: attempt + 1, reason: reason)
        return [.attemptReplaced(replaced)] + next
    }

    /// The current attempt's link, while its process is live and its capture has not ended;
    /// recorded once per attempt (later reads decide no event: the caller answers from the state).
    func decideIssueLink(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireBeforeDeadline("issue the link")
        guard state.status.hasOutstandingToken, let attempt = state.currentAttempt, attempt.link != nil,
            let expiresAt = attempt.tokenExpiresAt
        else {
            throw invalidTransition(command, because: "no attempt has a live link; ask for a token first")
        }
        guard now < expiresAt else {
            throw invalidTransition(command, because: "the link of attempt \(attempt.number) expired; ask for a token")
        }
        guard attempt.linkIssuedAt == nil else { return [] }
        let issued = JourneyEvent.linkIssued(LinkIssued(attempt: attempt.number, occurredAt: now, expiresAt: expiresAt))
        // Handing out the link is the person opening the capture: the attempt gets the opened
        // capture's grace, as the app's report of `prepareAndOpenSelfieCamera` gives it.
        guard attempt.captureOpenedAt == nil else { return [issued] }
        return [issued, .captureOpened(CaptureOpened(attempt: attempt.number, occurredAt: now))]
    }

    /// Expires the current attempt's token; an opened capture holds its attempt for the policy's
    /// `captureGrace` after the token's expiry, so a capture still running is never superseded.
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
        let deadline = state.expiryDeadline(of: current) ?? expiresAt
        guard now >= deadline else {
            let held = deadline > expiresAt ? " (an opened capture holds it past the token's expiry)" : ""
            throw error(
                .tokenNotExpired,
                "cannot expire the token of attempt \(attempt) while the journey is \(state.status.rawValue): "
                    + "\(Int(deadline.timeIntervalSince(now).rounded(.up))) s of its lifetime remain\(held)",
                attempt: attempt
            )
        }
        let expired = TokenExpired(attempt: attempt, occurredAt: now, expiresAt: expiresAt, detectedBy: .timer)
        return [.tokenExpired(expired)] + failAttempt(attempt, reason: .tokenExpired())
    }
}
