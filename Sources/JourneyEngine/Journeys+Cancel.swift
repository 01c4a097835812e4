import Foundation
import JourneyDomain

extension Journeys {
    /// Cancels the journey for the company or an operator: `JourneyCancelled` (reason, actor) and
    /// `JourneyAbandoned` (reason kind `cancelled`) in one append; the journey is final and makes
    /// no more processes. Returns the outcome (no events when it was already cancelled).
    ///
    /// `cancellation.reason` must be checked (``JourneyDomain/JourneyCancellation/checkedReason(_:field:)``).
    /// `journey_not_found` when the journey has no events or belongs to a tenant other than
    /// `tenant` (when given); `invalid_transition` when it already ended otherwise.
    @discardableResult
    public func cancel(
        _ id: JourneyID, _ cancellation: JourneyCancellation,
        tenant: String? = nil
    ) async throws -> JourneyCommandOutcome {
        let metadata = metadata(actor: cancellation.actor)
        return try await commands.transaction { context in
            let loaded = try context.load(id)
            guard loaded.version > 0, Self.visible(loaded.state, to: tenant) else {
                throw EngineError.notFound()
            }
            return try context.execute([.cancel(cancellation)], journey: id, metadata: metadata, known: loaded)
        }
    }
}
