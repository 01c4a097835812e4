import Foundation

extension JourneyDecider {
    /// `JourneyCancelled` then `JourneyAbandoned` (reason kind `cancelled`) for an active journey;
    /// nothing for a journey already cancelled (a retried cancel); `invalid_transition` naming the
    /// status for one that ended otherwise or has not started.
    func decideCancel(_ cancellation: JourneyCancellation, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        if state.status == .abandoned, state.abandonReason?.kind == .cancelled { return [] }
        try requireActive(command)
        return [
            .journeyCancelled(
                JourneyCancelled(
                    attempt: current, occurredAt: now, reason: cancellation.reason,
                    actor: cancellation.actor)),
            .journeyAbandoned(JourneyAbandoned(attempt: current, occurredAt: now, reason: .cancelled(cancellation.reason))),
        ]
    }
}
