import EventStore
import Foundation
import JourneyDomain
import Privacy

extension Journeys {
    /// The journey's opened Human Token with `PersonalDataDisclosed` (field `humanToken`)
    /// appended in the same transaction: the value is never handed out without its trace, and a
    /// failed opening (erased subject) records nothing. `humanToken` is nil, and nothing is
    /// appended, when the journey holds no Human Token. `journey_not_found` when it has no events
    /// or belongs to a tenant other than the disclosure's (when it names one).
    public func openHumanToken(_ id: JourneyID, disclosure: PersonalDataDisclosure) async throws
        -> (state: JourneyState, humanToken: String?)
    {
        let metadata = metadata(actor: disclosure.actor)
        let vault = dependencies.vault
        return try await commands.transaction { context in
            let loaded = try context.load(id)
            let state = loaded.state
            guard loaded.version > 0, Self.visible(state, to: disclosure.tenant) else {
                throw EngineError.notFound()
            }
            guard let sealed = state.humanToken, let subject = state.subject else { return (state, nil) }
            let token = try vault.open(
                sealed, field: PersonalDataField.humanToken, subject: subject.reference,
                on: context.connection)
            try context.execute(
                [.recordDisclosure(disclosure.with(fields: [PersonalDataField.humanToken]))],
                journey: id, metadata: metadata, known: loaded)
            return (state, token)
        }
    }

    /// Appends `PersonalDataDisclosed` for fields the caller has opened (one append); returns the
    /// event and its stream version. `journey_not_found` when the journey has no events.
    @discardableResult
    public func recordDisclosure(_ id: JourneyID, _ disclosure: PersonalDataDisclosure) async throws
        -> (event: PersonalDataDisclosed, version: Int64)
    {
        let metadata = metadata(actor: disclosure.actor)
        let outcome = try await commands.transaction { context in
            let loaded = try context.load(id)
            guard loaded.version > 0 else { throw EngineError.notFound() }
            return try context.execute([.recordDisclosure(disclosure)], journey: id, metadata: metadata, known: loaded)
        }
        guard case .personalDataDisclosed(let event)? = outcome.events.last else {
            throw EngineError(.inconsistentState, "a disclosure appended no event")
        }
        return (event, outcome.version)
    }
}
