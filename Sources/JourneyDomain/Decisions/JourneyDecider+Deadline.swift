import Foundation
import Timestamps

extension JourneyDecider {
    /// `JourneyAbandoned` (reason kind `deadlineReached`) once the start's deadline came, for an
    /// active journey whose current capture has not ended: one awaiting its result keeps it until
    /// the result decides. Refused before the deadline (`retry_not_due`, with the wait) and for a
    /// journey without one.
    func decideAbandonAtDeadline(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        guard let deadline = state.deadline else { throw invalidTransition(command, because: "it has no deadline") }
        guard now >= deadline else {
            let wait = deadline.timeIntervalSince(now)
            throw error(
                .retryNotDue,
                "cannot \(command.action) while it is \(state.status.rawValue): "
                    + "its deadline is in \(Int(wait.rounded(.up))) s",
                attempt: current, retryAfter: wait
            )
        }
        guard state.status != .awaitingResult else {
            throw invalidTransition(command, because: "its capture ended in time and its result is being fetched")
        }
        return [.journeyAbandoned(JourneyAbandoned(attempt: current, occurredAt: now, reason: .deadlineReached(deadline)))]
    }

    /// Refuses, with `deadline_reached` naming the status, what would hand out a token or make a
    /// process at or after an active journey's deadline (the workers are about to abandon it).
    func requireBeforeDeadline(_ action: String) throws(DomainError) {
        guard let deadline = state.deadline, now >= deadline, !state.status.isTerminal else { return }
        throw error(
            .deadlineReached,
            "cannot \(action) while the journey is \(state.status.rawValue): its deadline "
                + "\(RFC3339.string(from: deadline)) passed",
            attempt: current
        )
    }
}
