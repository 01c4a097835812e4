import Foundation

extension JourneyDecider {
    /// Records Get Process's answer for an attempt awaiting its result, current or earlier.
    ///
    /// A definitive result (approved, rejected) completes the journey whatever attempt is current,
    /// so no approval is lost to a retry. Unico-side failures (`PROCESS_STATE_FAILED`, any other
    /// result such as `PROCESS_RESULT_ERROR`) and an expired process fail the current attempt under
    /// the retry policy; for an earlier attempt they are only recorded.
    func decideResult(
        attempt: Int,
        snapshot: ProcessSnapshot,
        command: JourneyCommand
    ) throws(DomainError) -> [JourneyEvent] {
        // A result is recorded while the journey runs, and for an abandoned one that a later
        // webhook said finished (shown as completed after its abandonment: no approval is lost).
        guard state.status != .notStarted, state.status != .completed,
            state.status != .abandoned || state.awaitsResult(attempt) || state.awaitsFinishProbe(attempt)
        else { throw invalidTransition(command) }
        guard state.attempt(attempt) != nil else {
            throw error(
                .unknownAttempt,
                "cannot \(command.action) for attempt \(attempt) while the journey is \(state.status.rawValue): "
                    + "it has \(current) attempt(s)",
                attempt: attempt
            )
        }
        let probing = !state.awaitsResult(attempt) && state.mayProbeResult(attempt)
        guard state.awaitsResult(attempt) || probing, let target = state.attempt(attempt), let processID = target.processID
        else {
            if attempt != current {
                throw error(
                    .staleAttempt,
                    "cannot \(command.action) for attempt \(attempt): it awaits no result, the current attempt is "
                        + "\(current) and the journey is \(state.status.rawValue)",
                    attempt: attempt
                )
            }
            throw invalidTransition(command, attempt: attempt)
        }
        guard snapshot.state == .finished || snapshot.state == .failed else {
            // Asked before expiring an opened capture: nothing to record while Unico works on it.
            // After a 73302 the answer is recorded, so the probe runs once and the retry goes ahead.
            if probing, state.awaitsFinishProbe(attempt) {
                return [
                    .resultPending(
                        ResultPending(
                            attempt: attempt, occurredAt: now, processState: snapshot.state,
                            pendingFetches: target.pendingFetches + 1, nextFetchAt: now))
                ]
            }
            if probing { return [] }
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
        guard let outcome = Self.definitiveOutcome(of: snapshot) else {
            guard attempt == current, !state.status.isTerminal, target.failedAt == nil else { return [fetched] }
            let reason: AttemptFailureReason =
                snapshot.state == .finished && snapshot.result == .expired
                ? .processExpired
                : .processFailed(state: snapshot.state, result: snapshot.result)
            return [fetched] + failAttempt(attempt, reason: reason)
        }
        let completed = JourneyCompleted(
            attempt: attempt,
            occurredAt: now,
            outcome: outcome,
            processID: processID,
            humanToken: outcome == .approved ? snapshot.humanToken : nil
        )
        return [fetched, .journeyCompleted(completed)]
    }

    /// Approved or rejected for a finished process; nil for everything the policy may retry.
    static func definitiveOutcome(of snapshot: ProcessSnapshot) -> JourneyOutcome? {
        guard snapshot.state == .finished else { return nil }
        switch snapshot.result {
        case .ok: return .approved
        case .invalidIdentity: return .rejected
        default: return nil
        }
    }
}
