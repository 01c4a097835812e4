import Foundation

extension JourneyState {
    /// What a worker must do next and when; nil when nothing is due (final, or waiting on the app only).
    public var nextDue: DueWork? {
        switch status {
        case .started:
            return startedAt.map { DueWork(kind: .retry, attempt: 0, at: $0) }
        case .creatingProcess:
            return currentAttempt.map {
                DueWork(
                    kind: .reconcileProcessCreation,
                    attempt: $0.number,
                    at: $0.requestedAt.addingTimeInterval(JourneyTiming.processCreationGrace)
                )
            }
        case .processCreated, .tokenIssued, .captureOpened:
            guard let attempt = currentAttempt, let expiry = attempt.tokenExpiresAt else { return nil }
            return DueWork(kind: .expireToken, attempt: attempt.number, at: expiry)
        case .awaitingResult:
            guard let attempt = currentAttempt, let at = attempt.nextFetchAt ?? attempt.awaitingResultSince else {
                return nil
            }
            return DueWork(kind: .fetchResult, attempt: attempt.number, at: at)
        case .retryScheduled:
            guard let attempt = currentAttempt, let at = attempt.retryAt else { return nil }
            return DueWork(kind: .retry, attempt: attempt.number, at: at)
        case .notStarted, .attemptFailed, .completed, .abandoned:
            return nil
        }
    }
}
