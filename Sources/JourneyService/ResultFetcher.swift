import EventStore
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyStore
import Observability
import Postgres
import Privacy

/// Calls Get Process for a journey's current attempt and records what it says through the domain:
/// `ResultFetched` (the Human Token sealed under the subject's data key, field
/// `PersonalDataField.humanToken`) and `JourneyCompleted`, or `ResultPending` while Unico has not
/// finished.
///
/// No transaction is held across the Unico call: the state is read, Get Process runs (background
/// priority), then one short transaction reloads the journey and records the snapshot only if the
/// same attempt is still awaiting its result. Concurrent fetches (a callback and a webhook, or two
/// webhooks) therefore record at most one `ResultFetched`; the losers are no-ops.
///
/// The callback and webhook routes run it before answering (see ``JourneyRoutes``); the workers
/// can call ``fetch(journeyID:)`` when ``JourneyState/nextDue`` says `fetchResult`.
public struct ResultFetcher: Sendable {
    /// What a fetch did.
    public enum Outcome: Sendable, Equatable {
        /// The journey was not awaiting a result (already completed, failed, unknown): nothing was called.
        case nothingToFetch
        /// Unico has not finished: `ResultPending` was recorded.
        case pending
        /// `ResultFetched` (and the completion or the attempt's failure) was recorded.
        case recorded(JourneyStatus)
        /// Another writer recorded the result first.
        case alreadyRecorded
    }

    let writer: JourneyWriter
    let dependencies: JourneyDependencies

    public init(database: PostgresClient, dependencies: JourneyDependencies) {
        self.init(writer: JourneyWriter(database: database, clock: dependencies.clock), dependencies: dependencies)
    }

    init(writer: JourneyWriter, dependencies: JourneyDependencies) {
        self.writer = writer
        self.dependencies = dependencies
    }

    /// Fetches and records the result of the journey's current attempt, if it is awaiting one.
    /// Throws the Unico client's error when Get Process fails (the journey stays awaiting its result).
    @discardableResult
    public func fetch(journeyID id: JourneyID) async throws -> Outcome {
        let (state, version) = try await writer.database.withConnection { try JourneyRepository.load(id, on: $0) }
        guard version > 0, state.status == .awaitingResult, let attempt = state.currentAttempt,
              let processID = attempt.processID, let environment = state.environment, let subject = state.subject
        else { return .nothingToFetch }
        guard let unico = dependencies.unico[environment] else {
            throw HumanTokenAPIError(.configuration, "no Unico client for the environment")
        }
        let snapshot = try await unico.getProcess(processID.rawValue, priority: .background)
        do {
            return try await record(snapshot, attempt: attempt.number, subject: subject.reference, journey: id)
        } catch let problem as Problem where problem.status == .conflict {
            // Each statement of a READ COMMITTED transaction sees the latest commit: another fetch
            // may have recorded the result between the check and the decision. Then it is done.
            let (current, _) = try await writer.database.withConnection { try JourneyRepository.load(id, on: $0) }
            guard current.status == .awaitingResult, current.currentAttemptNumber == attempt.number else {
                return .alreadyRecorded
            }
            throw problem
        }
    }

    /// Records `snapshot` in one short transaction if the attempt still awaits its result.
    private func record(_ snapshot: HumanTokenAPI.ProcessSnapshot, attempt number: Int, subject: SubjectReference,
                        journey id: JourneyID) async throws -> Outcome {
        let vault = dependencies.vault
        let metadata = EventMetadata(correlationID: UUID(), actor: "result-fetcher")
        return try await writer.transaction { connection, now in
            let (current, _) = try JourneyRepository.load(id, on: connection)
            guard current.status == .awaitingResult, current.currentAttemptNumber == number else {
                return .alreadyRecorded
            }
            let sealed = try snapshot.humanToken.map {
                try vault.seal($0, field: PersonalDataField.humanToken, subject: subject, on: connection)
            }
            let recorded = JourneyDomain.ProcessSnapshot(
                state: JourneyDomain.ProcessState(rawValue: snapshot.state.rawValue),
                result: JourneyDomain.ProcessResult(rawValue: snapshot.result.rawValue),
                humanToken: sealed, finishedAt: snapshot.finishedAt)
            let outcome = try JourneyWriter.execute(.recordResult(attempt: number, snapshot: recorded),
                                                    journey: id, metadata: metadata, now: now, on: connection)
            return outcome.state.status == .awaitingResult ? .pending : .recorded(outcome.state.status)
        }
    }

    /// Fetches for a route (`trigger` is `callback` or `webhook`): counts the outcome in
    /// `result_fetches_total{trigger,outcome}` and logs a failure instead of throwing it; the
    /// journey then stays `awaitingResult` and its `nextDue` asks a worker to fetch again.
    func fetchCounting(journeyID id: JourneyID, trigger: String, metrics: MetricsRegistry) async {
        let label: String
        do {
            switch try await fetch(journeyID: id) {
            case .nothingToFetch: label = "nothing_to_fetch"
            case .pending: label = "pending"
            case .recorded: label = "recorded"
            case .alreadyRecorded: label = "already_recorded"
            }
        } catch {
            label = "failed"
            WebhookHandler.log("\(trigger) for journey \(id.rawValue): Get Process failed: \(String(describing: error))")
        }
        metrics.increment("result_fetches_total", help: "Get Process calls after callbacks and webhooks, by outcome.",
                          labels: ["trigger": trigger, "outcome": label])
    }
}
