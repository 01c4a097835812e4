import Foundation

extension JourneyDecider {
    /// `PersonalDataDisclosed` for every opening of a started journey, whatever its status (a
    /// finished or erased journey's data may still be asked for); a journey that never started
    /// has nothing to open.
    func decideDisclosure(_ disclosure: PersonalDataDisclosure, command: JourneyCommand) throws(DomainError) -> [JourneyEvent] {
        guard state.status != .notStarted else { throw invalidTransition(command) }
        return [.personalDataDisclosed(PersonalDataDisclosed(attempt: current, occurredAt: now, disclosure: disclosure))]
    }
}
