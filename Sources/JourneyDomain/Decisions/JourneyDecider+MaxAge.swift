import Foundation

extension JourneyDecider {
    /// `JourneyAbandoned` (reason kind `maxAgeReached`) once an active journey reached its
    /// maximum age (``JourneyState/maxAgeAt``), whatever it waits for; refused before then
    /// (`retry_not_due`, with the wait).
    func decideAbandonAtMaxAge(_ command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        try requireActive(command)
        guard let at = state.maxAgeAt else { throw invalidTransition(command, because: "it has no start") }
        guard now >= at else {
            let wait = at.timeIntervalSince(now)
            throw error(
                .retryNotDue,
                "cannot \(command.action) while it is \(state.status.rawValue): "
                    + "its maximum age is reached in \(Int(wait.rounded(.up))) s",
                attempt: current, retryAfter: wait
            )
        }
        let reason = AbandonReason.maxAgeReached(state.retryPolicy.maximumAge)
        return [.journeyAbandoned(JourneyAbandoned(attempt: current, occurredAt: now, reason: reason))]
    }
}
