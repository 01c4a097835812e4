import Foundation

extension JourneyDecider {
    func decideStart(_ start: StartJourney) throws(DomainError) -> [JourneyEvent] {
        guard state.status == .notStarted else {
            throw error(
                .alreadyStarted,
                "cannot start journey \(start.journeyID) while it is \(state.status.rawValue): it already started"
            )
        }
        let started = JourneyStarted(
            journeyID: start.journeyID,
            occurredAt: now,
            environment: start.environment,
            flow: start.flow,
            purpose: start.purpose,
            subject: start.subject,
            clientReference: start.clientReference,
            retryPolicy: start.retryPolicy,
            tenant: start.tenant,
            deadline: start.deadline
        )
        guard StartJourney.makesProcess(requested: start.processAtStart, notificationChannels: start.subject.notificationChannels)
        else {
            // SDK journeys: attempt 1's process is made when the app asks for its token.
            return [.journeyStarted(started)]
        }
        let requested = ProcessCreationRequested(
            attempt: 1,
            occurredAt: now,
            unicoClientReference: ProcessCreationRequested.unicoClientReference(journeyID: start.journeyID, attempt: 1),
            trigger: .initial
        )
        return [.journeyStarted(started), .processCreationRequested(requested)]
    }

    func decideProcessCreated(_ creation: ProcessCreation) throws(DomainError) -> [JourneyEvent] {
        let command = JourneyCommand.recordProcessCreated(creation)
        try requireActive(command)
        try requireCurrent(creation.attempt, command)
        guard state.status == .creatingProcess else { throw invalidTransition(command, attempt: creation.attempt) }
        // A link journey's attempt lives as long as Unico's link (the process), an SDK one's the
        // webAppToken's five minutes; both counted from when Create Process was sent.
        let lifetime = state.attemptLifetime
        var expiry = creation.tokenExpiresAt ?? min(creation.sentAt ?? now, now).addingTimeInterval(lifetime)
        // A link (its process's `expiresIn` too) ends with the journey's deadline.
        if state.isLinkJourney, let deadline = state.deadline { expiry = min(expiry, deadline) }
        let created = ProcessCreated(
            attempt: creation.attempt,
            occurredAt: now,
            processID: creation.processID,
            webAppToken: creation.webAppToken,
            processToken: creation.processToken,
            link: creation.link,
            tokenExpiresAt: expiry
        )
        return [.processCreated(created)]
    }

    func decideProcessCreationFailed(
        attempt: Int,
        failure: ProcessCreationFailure,
        command: JourneyCommand
    ) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        try requireCurrent(attempt, command)
        guard state.status == .creatingProcess else { throw invalidTransition(command, attempt: attempt) }
        let failed = ProcessCreationFailed(attempt: attempt, occurredAt: now, failure: failure)
        return [.processCreationFailed(failed)] + failAttempt(attempt, reason: .processCreationFailed(failure))
    }

    func decideRetry(afterAttempt attempt: Int, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        try requireCurrent(attempt, command)
        switch state.status {
        case .started:
            return try newAttempt(trigger: .initial)
        case .retryScheduled:
            if let retryAt = state.currentAttempt?.retryAt, now < retryAt {
                let wait = retryAt.timeIntervalSince(now)
                throw error(
                    .retryNotDue,
                    "cannot retry attempt \(attempt) while the journey is \(state.status.rawValue): "
                        + "the retry is due in \(Int(wait.rounded(.up))) s",
                    attempt: attempt, retryAfter: wait
                )
            }
            guard state.isLinkJourney else {
                // SDK journeys: the process is created when the app asks for the token.
                let abandonAt = now.addingTimeInterval(state.retryPolicy.abandonAfter)
                return [.retryAllowed(RetryAllowed(attempt: attempt, occurredAt: now, abandonAt: abandonAt))]
            }
            return try newAttempt(trigger: .retry)
        default:
            throw invalidTransition(command, attempt: attempt)
        }
    }

    func decideAbandonAbsent(afterAttempt attempt: Int, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        try requireCurrent(attempt, command)
        if state.status == .started, let deadline = state.firstCaptureDeadline, let startedAt = state.startedAt {
            // Started, and the app never asked for a token.
            guard now >= deadline else {
                throw error(
                    .retryNotDue,
                    "cannot abandon the journey while it is \(state.status.rawValue): the app may still ask for its first "
                        + "token for \(Int(deadline.timeIntervalSince(now).rounded(.up))) s",
                    attempt: attempt, retryAfter: deadline.timeIntervalSince(now)
                )
            }
            let reason = AbandonReason.userAbsent(afterAttempt: 0, waited: deadline.timeIntervalSince(startedAt))
            return [.journeyAbandoned(JourneyAbandoned(attempt: 0, occurredAt: now, reason: reason))]
        }
        guard state.status == .retryAvailable, let target = state.currentAttempt, let abandonAt = target.abandonAt,
            let allowedAt = target.retryAllowedAt
        else {
            throw invalidTransition(command, attempt: attempt)
        }
        guard now >= abandonAt else {
            throw error(
                .retryNotDue,
                "cannot abandon the journey while it is \(state.status.rawValue): the app may still ask for a token "
                    + "for \(Int(abandonAt.timeIntervalSince(now).rounded(.up))) s",
                attempt: attempt, retryAfter: abandonAt.timeIntervalSince(now)
            )
        }
        let reason = AbandonReason.userAbsent(afterAttempt: attempt, waited: abandonAt.timeIntervalSince(allowedAt))
        return [.journeyAbandoned(JourneyAbandoned(attempt: attempt, occurredAt: now, reason: reason))]
    }
}
