import Foundation

extension JourneyDecider {
    /// `SubjectErased` once per journey; an active journey is abandoned first, since nothing of
    /// it can be sealed or opened any more. A journey already marked erased decides nothing.
    func decideSubjectErased(_ erasure: SubjectErasure, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        guard state.status != .notStarted else { throw invalidTransition(command) }
        guard state.subjectErasedAt == nil else { return [] }
        var events: [JourneyEvent] = []
        if !state.status.isTerminal {
            events.append(
                .journeyAbandoned(
                    JourneyAbandoned(
                        attempt: current, occurredAt: now, reason: .requested("the subject was erased"))))
        }
        events.append(
            .subjectErased(
                SubjectErased(
                    attempt: current, occurredAt: now, requestedBy: erasure.requestedBy, reason: erasure.reason,
                    erasedAt: erasure.erasedAt)))
        return events
    }
}
