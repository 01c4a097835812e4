import EventStore
import Foundation
import JourneyDomain

/// What the app reports with the journey's client token: the capture screen opened, and the
/// SDK's outcome.
extension Journeys {
    /// The actor of what the app reports.
    static let clientActor = "client-token"

    /// Records that the capture screen opened for `attempt` (default: the current one).
    public func recordCaptureOpened(_ id: JourneyID, attempt: Int?) async throws -> JourneyState {
        try await recordReport(id) { .recordCaptureOpened(attempt: attempt ?? $0) }
    }

    /// Records the SDK's outcome for `attempt` (default: the current one).
    ///
    /// A success that arrives after the journey completed with that very process (Unico's webhook
    /// was faster) returns the final state and appends nothing; anything else the domain refuses
    /// is thrown.
    public func recordCallback(_ id: JourneyID, attempt: Int?, outcome: CallbackOutcome) async throws -> JourneyState {
        do {
            return try await recordReport(id) { .recordCallback(attempt: attempt ?? $0, outcome: outcome) }
        } catch let refusal as DomainError where refusal.code.suggestedHTTPStatus == 409 {
            guard case .success(let processID) = outcome else { throw refusal }
            let state = try await state(of: id)
            guard state.status == .completed, state.currentAttempt?.processID == processID else { throw refusal }
            return state
        }
    }

    /// Records a drop-off the SDK reported for `attempt` (default: the current one): the user
    /// closed the capture, or its session timed out. The attempt fails and the next one is
    /// allowed at once, within the policy's budget.
    public func recordDropOff(_ id: JourneyID, attempt: Int?, _ kind: DropOff) async throws -> JourneyState {
        try await recordReport(id) {
            switch kind {
            case .closedByUser: .recordCaptureClosedByUser(attempt: attempt ?? $0)
            case .sessionTimedOut: .recordCaptureSessionTimedOut(attempt: attempt ?? $0)
            }
        }
    }

    /// Records that face inference timed out for `attempt` (default: the current one) and the
    /// capture went on manually; once per attempt, while its capture is open.
    public func recordFaceInferenceTimedOut(_ id: JourneyID, attempt: Int?) async throws -> JourneyState {
        try await recordReport(id) { .recordFaceInferenceTimedOut(attempt: attempt ?? $0) }
    }

    /// Runs the command made from the current attempt number, decided on the one load that
    /// found it; `journey_not_found` without events. A duplicate report decides no event and
    /// writes nothing.
    private func recordReport(
        _ id: JourneyID,
        _ command: @escaping @Sendable (Int) -> JourneyCommand
    ) async throws -> JourneyState {
        let metadata = metadata(actor: Self.clientActor)
        return try await commands.transaction { context in
            let known = try context.load(id)
            guard known.version > 0 else { throw EngineError.notFound() }
            return try context.execute(
                [command(known.state.currentAttemptNumber)], journey: id, metadata: metadata,
                known: known
            ).state
        }
    }
}
