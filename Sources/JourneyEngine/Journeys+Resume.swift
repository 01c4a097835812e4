import EventStore
import Foundation
import JourneyDomain

extension Journeys {
    /// Answers like ``issueToken(_:actor:)`` for a journey whose starting request died or gave up
    /// (its Idempotency-Key taken over): while the current attempt's Create Process is
    /// unresolved, first looks the process up by client reference and adopts it, so the retry
    /// gets the token in seconds instead of after the workers' reconciliation.
    ///
    /// Never creates the process: the first request's call may still be in flight, and only
    /// the workers' reconciliation (after ``JourneyTiming/processCreationGrace``) may create it.
    /// Until then an attempt Unico has no process for throws `process_creation_pending`.
    public func resumeToken(_ id: JourneyID, actor: String) async throws -> AttemptOutcome {
        let state = try await state(of: id)
        if state.status == .creatingProcess {
            do {
                _ = try await reconcileProcessCreation(state, lastTry: false, mayCreate: false, priority: .live)
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
                // A worker or another retry recorded the outcome meanwhile: answer from it.
            }
        }
        return try await issueToken(id, actor: actor)
    }
}
