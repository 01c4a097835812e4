import Foundation

extension JourneyDecider {
    func decideResult(
        attempt: Int,
        snapshot: ProcessSnapshot,
        command: JourneyCommand
    ) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        try requireCurrent(attempt, command)
        guard state.status == .awaitingResult, let target = state.currentAttempt, let processID = target.processID else {
            throw invalidTransition(command, attempt: attempt)
        }
        guard snapshot.state == .finished || snapshot.state == .failed else {
            let pending = target.pendingFetches + 1
            let next = now.addingTimeInterval(JourneyTiming.resultPollDelay(afterPendingFetches: pending))
            let event = ResultPending(
                attempt: attempt,
                occurredAt: now,
                processState: snapshot.state,
                pendingFetches: pending,
                nextFetchAt: next
            )
            return [.resultPending(event)]
        }
        if snapshot.state == .finished, snapshot.result == .ok, snapshot.humanToken == nil {
            throw error(
                .invalidResult,
                "cannot record a process result while the journey is \(state.status.rawValue): "
                    + "an OK result must carry the Human Token",
                attempt: attempt
            )
        }
        let fetched = JourneyEvent.resultFetched(
            ResultFetched(
                attempt: attempt,
                occurredAt: now,
                processID: processID,
                processState: snapshot.state,
                processResult: snapshot.result,
                humanToken: snapshot.humanToken,
                finishedAt: snapshot.finishedAt
            )
        )
        if snapshot.state == .finished, snapshot.result == .expired {
            return [fetched] + failAttempt(attempt, reason: .processExpired)
        }
        let outcome = Self.outcome(of: snapshot)
        let completed = JourneyCompleted(
            attempt: attempt,
            occurredAt: now,
            outcome: outcome,
            processID: processID,
            humanToken: outcome == .approved ? snapshot.humanToken : nil
        )
        return [fetched, .journeyCompleted(completed)]
    }

    /// The outcome of a finished or failed process other than an expired one.
    static func outcome(of snapshot: ProcessSnapshot) -> JourneyOutcome {
        guard snapshot.state == .finished else { return .failed }
        switch snapshot.result {
        case .ok: return .approved
        case .invalidIdentity: return .rejected
        default: return .failed
        }
    }
}
