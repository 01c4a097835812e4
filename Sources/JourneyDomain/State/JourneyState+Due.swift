import Foundation

extension JourneyState {
    /// What a worker must do next and when; nil when nothing is due (final, or waiting on the app only).
    ///
    /// The earliest of the current attempt's work and the result fetches of earlier attempts whose
    /// capture ended after they were replaced (no approval is lost to a retry).
    public var nextDue: DueWork? {
        // An abandoned journey has no current work, but any attempt may still await a late result.
        let candidatesAwaiting = learnsLateResults ? attempts[...] : attempts.dropLast()
        let earlier = candidatesAwaiting.filter { awaitsResult($0.number) }.compactMap { attempt in
            (attempt.nextFetchAt ?? attempt.awaitingResultSince).map {
                DueWork(kind: .fetchResult, attempt: attempt.number, at: $0)
            }
        }
        // A 73302 after an opened capture: Get Process once before the retry (ties go to the probe).
        let probes = attempts.filter { awaitsFinishProbe($0.number) }.compactMap { attempt in
            (attempt.callbackAt ?? attempt.failedAt).map { DueWork(kind: .fetchResult, attempt: attempt.number, at: $0) }
        }
        // The deadline, then the maximum age, before the current attempt's work: at the same instant they win.
        let candidates = probes + earlier + [deadlineDue, maxAgeDue, currentDue].compactMap { $0 }
        return candidates.min { $0.at < $1.at }
    }

    /// The deadline's abandonment, for an active journey with a deadline whose current capture has
    /// not ended: one awaiting its result keeps it (the person finished in time), and is due at
    /// once if that result fails the attempt, since no attempt follows the deadline.
    private var deadlineDue: DueWork? {
        guard let deadline, status != .notStarted, !status.isTerminal, status != .awaitingResult else { return nil }
        return DueWork(kind: .abandonAtDeadline, attempt: currentAttemptNumber, at: deadline)
    }

    /// The maximum age's abandonment, for every journey still open at ``maxAgeAt``, whatever it
    /// waits for (a result Unico never gives, an attempt nobody ends): no journey stays open for ever.
    private var maxAgeDue: DueWork? {
        guard status != .notStarted, !status.isTerminal, let at = maxAgeAt else { return nil }
        return DueWork(kind: .abandonAtMaxAge, attempt: currentAttemptNumber, at: at)
    }

    /// When a started journey with no attempt is abandoned if the app never asks for a token.
    public var firstCaptureDeadline: Date? {
        guard status == .started, attempts.isEmpty else { return nil }
        return startedAt?.addingTimeInterval(JourneyTiming.firstCaptureWindow)
    }

    /// The latest moment the app can still continue the journey, when known: the first-capture
    /// deadline of a journey without attempts, or when an allowed retry lapses, and never after
    /// the journey's ``deadline``; else nil while an attempt runs (its end depends on what
    /// happens next) and for an ended journey.
    public var continuationDeadline: Date? {
        let natural: Date? =
            switch status {
            case .started: firstCaptureDeadline
            case .retryAvailable: currentAttempt?.abandonAt
            default: nil
            }
        guard let deadline, !status.isTerminal else { return natural }
        return natural.map { min($0, deadline) } ?? deadline
    }

    /// The current attempt's work.
    private var currentDue: DueWork? {
        switch status {
        case .started:
            // No attempt yet: the app's token request makes the first; a journey nobody came
            // back to is abandoned after the first-capture window. Never a worker's process.
            return firstCaptureDeadline.map { DueWork(kind: .abandonAbsent, attempt: 0, at: $0) }
        case .creatingProcess:
            return currentAttempt.map {
                DueWork(
                    kind: .reconcileProcessCreation,
                    attempt: $0.number,
                    at: $0.requestedAt.addingTimeInterval(JourneyTiming.processCreationGrace)
                )
            }
        case .processCreated, .tokenIssued, .captureOpened:
            guard let attempt = currentAttempt, let expiry = expiryDeadline(of: attempt) else { return nil }
            return DueWork(kind: .expireToken, attempt: attempt.number, at: expiry)
        case .awaitingResult:
            guard let attempt = currentAttempt, let at = attempt.nextFetchAt ?? attempt.awaitingResultSince else {
                return nil
            }
            return DueWork(kind: .fetchResult, attempt: attempt.number, at: at)
        case .retryScheduled:
            guard let attempt = currentAttempt, let at = attempt.retryAt else { return nil }
            return DueWork(kind: .retry, attempt: attempt.number, at: at)
        case .retryAvailable:
            guard let attempt = currentAttempt, let at = attempt.abandonAt else { return nil }
            return DueWork(kind: .abandonAbsent, attempt: attempt.number, at: at)
        case .notStarted, .attemptFailed, .completed, .abandoned:
            return nil
        }
    }
}
