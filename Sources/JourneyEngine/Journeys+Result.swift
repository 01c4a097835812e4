import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import Privacy

/// Fetching the result: Get Process for an attempt awaiting its result (the current one, or an
/// earlier one whose capture ended after a retry replaced it), recorded through the
/// domain as `ResultFetched` (the Human Token sealed under the subject's data key, field
/// `PersonalDataField.humanToken`) and `JourneyCompleted`, or `ResultPending` while Unico has not
/// finished.
///
/// No transaction is held across the Unico call: the state is read, Get Process runs (background
/// priority), then one short transaction reloads the journey and records the snapshot only if the
/// same attempt is still awaiting its result. Concurrent fetches (a callback and a webhook, or two
/// webhooks) therefore record at most one `ResultFetched`; the losers are no-ops.
extension Journeys {
    /// The actor of recorded results.
    static let resultActor = "result-fetcher"

    /// Fetches and records the result of `attempt` (default: the oldest attempt awaiting one), if
    /// it awaits one. Throws the Unico client's error when Get Process fails (nothing is recorded).
    @discardableResult
    public func fetchResult(_ id: JourneyID, attempt requested: Int? = nil) async throws -> ResultFetch {
        let (state, version) = try await commands.load(id)
        let number = requested ?? state.attemptsAwaitingResult.first?.number ?? 0
        guard version > 0, state.awaitsResult(number), let attempt = state.attempt(number),
            let processID = attempt.processID, let environment = state.environment, let subject = state.subject
        else { return .nothingToFetch }
        guard let unico = dependencies.unicoClient(environment, tenant: state.tenant) else {
            throw HumanTokenAPIError(.configuration, "no Unico client for the environment")
        }
        let snapshot = try await unico.getProcess(processID.rawValue, priority: .background)
        do {
            return try await record(snapshot, attempt: number, subject: subject.reference, journey: id)
        } catch let refusal as DomainError where refusal.code.suggestedHTTPStatus == 409 {
            // Each statement of a READ COMMITTED transaction sees the latest commit: another fetch
            // may have recorded the result between the check and the decision. Then it is done.
            let (current, _) = try await commands.load(id)
            guard current.awaitsResult(number) else { return .alreadyRecorded }
            throw refusal
        }
    }

    /// Before an opened capture's attempt is expired, and once after a `73302` that followed an
    /// opened capture (``JourneyState/awaitsFinishProbe(_:)``, its answer recorded either way): asks Unico (Get Process, background) whether
    /// the capture finished although neither the app's callback nor Unico's webhook arrived, and
    /// records the result if so. `.nothingToFetch` when the attempt may not be asked about (no
    /// opened capture, or a callback came), `.pending` while Unico has no result (expire it).
    /// Throws the Unico client's error when Get Process fails (nothing is recorded).
    public func probeResult(_ id: JourneyID, attempt number: Int) async throws -> ResultFetch {
        let (state, version) = try await commands.load(id)
        guard version > 0, state.mayProbeResult(number), let attempt = state.attempt(number),
            let processID = attempt.processID, let environment = state.environment, let subject = state.subject
        else { return .nothingToFetch }
        guard let unico = dependencies.unicoClient(environment, tenant: state.tenant) else {
            throw HumanTokenAPIError(.configuration, "no Unico client for the environment")
        }
        let snapshot = try await unico.getProcess(processID.rawValue, priority: .background)
        // After a 73302 the "not finished" answer is recorded too (`ResultPending`): probed once.
        guard snapshot.state == .finished || snapshot.state == .failed || state.awaitsFinishProbe(number) else {
            return .pending
        }
        return try await record(snapshot, attempt: number, subject: subject.reference, journey: id, probing: true)
    }

    /// Records `snapshot` in one short transaction if the attempt still awaits its result.
    private func record(
        _ snapshot: UnicoProcessSnapshot, attempt number: Int, subject: SubjectReference,
        journey id: JourneyID, probing: Bool = false
    ) async throws -> ResultFetch {
        let vault = dependencies.vault
        let metadata = metadata(actor: Self.resultActor)
        return try await commands.transaction { context in
            let (current, _) = try context.load(id)
            guard current.awaitsResult(number) || (probing && current.mayProbeResult(number)) else { return .alreadyRecorded }
            let sealed = try snapshot.humanToken.map {
                try vault.seal($0, field: PersonalDataField.humanToken, subject: subject, on: context.connection)
            }
            let recorded = JourneyDomain.ProcessSnapshot(
                state: JourneyDomain.ProcessState(rawValue: snapshot.state.rawValue),
                result: JourneyDomain.ProcessResult(rawValue: snapshot.result.rawValue),
                humanToken: sealed, finishedAt: snapshot.finishedAt)
            let outcome = try context.execute(
                .recordResult(attempt: number, snapshot: recorded), journey: id,
                metadata: metadata)
            guard outcome.events.contains(where: { $0.eventType != ResultPending.eventType }) else { return .pending }
            return outcome.state.awaitsResult(number) ? .pending : .recorded(outcome.state.status)
        }
    }
}
