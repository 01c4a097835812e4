import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyService
import JourneyStore
import Postgres

/// Performs one due item against the journey's own event stream, never against the read model:
/// the item runs only if the freshly loaded state still has that work due, and every append goes
/// through the domain with the stream's version as the expected version. A stale item (the
/// journey moved on, or the read model lags behind an append) finishes as `stale`.
public struct DuePerformer: Sendable {
    /// Retry timing of items that could not finish (Unico 429/5xx, lookups, conflicts).
    public struct Configuration: Sendable {
        /// Delay after the first unfinished try. Default 5 s.
        public var initialBackoff: TimeInterval
        /// Cap on that delay, doubling per try. Default 300 s.
        public var maximumBackoff: TimeInterval
        /// Failed reconciliation lookups before the attempt is recorded as failed (the retry policy
        /// then decides). Default 10.
        public var reconcileTries: Int

        public init(initialBackoff: TimeInterval = 5, maximumBackoff: TimeInterval = 300, reconcileTries: Int = 10) {
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.reconcileTries = reconcileTries
        }

        /// Delay before the next try after `tries` unfinished ones.
        public func backoff(afterTries tries: Int) -> TimeInterval {
            let grown = initialBackoff * pow(2, Double(max(1, tries) - 1))
            return grown.isFinite ? min(grown, maximumBackoff) : maximumBackoff
        }
    }

    public let database: PostgresClient
    public let dependencies: JourneyDependencies
    public let configuration: Configuration
    let clock: @Sendable () -> Date
    let fetcher: ResultFetcher

    /// Decision times come from `dependencies.clock`.
    public init(database: PostgresClient, dependencies: JourneyDependencies, configuration: Configuration = Configuration()) {
        self.database = database
        self.dependencies = dependencies
        self.configuration = configuration
        self.clock = dependencies.clock
        self.fetcher = ResultFetcher(database: database, dependencies: dependencies)
    }

    /// Performs `item`; throws only database failures (the caller releases the item).
    public func perform(_ item: WorkItem) async throws -> WorkResult {
        let id = item.journeyID
        let (state, version) = try await database.withConnection { try JourneyRepository.load(id, on: $0) }
        guard version > 0, let due = state.nextDue, due.kind == item.kind, due.attempt == item.attempt else {
            return .done("stale")
        }
        let now = clock()
        if due.at.timeIntervalSince(now) > 0.001 {
            // Same work, later time (a newer fetch schedule): the read model will copy the new item.
            return abs(due.at.timeIntervalSince(item.dueAt)) < 0.001 ? .later(due.at, "not_due") : .done("stale")
        }
        do {
            switch item.kind {
            case .expireToken:
                _ = try await execute(.expireToken(attempt: item.attempt), id)
                return .done("expired")
            case .retry:
                return try await retry(id, after: item.attempt)
            case .reconcileProcessCreation:
                return try await reconcile(id, state: state, item: item)
            case .fetchResult:
                return try await fetch(id, item: item)
            }
        } catch let refusal as DomainError {
            return .done("refused_\(refusal.code.rawValue)")
        } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
            return .later(now, "conflict")
        }
    }

    // MARK: - Kinds

    /// Records attempt n+1's intent, then creates its process.
    private func retry(_ id: JourneyID, after attempt: Int) async throws -> WorkResult {
        let vault = dependencies.vault
        let (now, random, metadata) = (clock(), Double.random(in: 0..<1), Self.metadata)
        let target = try await database.transaction { connection -> AttemptRunner.Target? in
            let outcome = try JourneyRepository.execute(.retry(afterAttempt: attempt), journey: id, metadata: metadata,
                                                        now: now, randomUnit: random, on: connection)
            return try AttemptRunner.Target.current(outcome.state, vault: vault, on: connection)
        }
        guard let target else { return .done("stale") }
        return try await create(target, tokenExpiresAt: nil)
    }

    /// Looks the open intent's process up by client reference; adopts it, or creates it if absent.
    private func reconcile(_ id: JourneyID, state: JourneyState, item: WorkItem) async throws -> WorkResult {
        let vault = dependencies.vault
        guard let target = try await database.withConnection({ try AttemptRunner.Target.current(state, vault: vault, on: $0) })
        else { return .done("stale") }
        guard let unico = dependencies.unico[target.environment] else { return noClient() }
        let found: [FoundProcess]
        do {
            found = try await unico.findProcesses(clientReference: target.unicoClientReference, priority: .background)
        } catch let error as HumanTokenAPIError {
            guard item.tries < configuration.reconcileTries else {
                try await recordFailure(target, error)
                return .done("creation_failed")
            }
            return later(item, error, "lookup_failed")
        }
        guard let existing = found.first else {
            let result = try await create(target, tokenExpiresAt: nil)
            // Still no answer: this same item (same intent) must run again, after a backoff.
            guard result == .done("left_open") else { return result }
            return .later(clock().addingTimeInterval(configuration.backoff(afterTries: item.tries)), "left_open")
        }
        guard let process = existing.created else {
            // The lookup did not return the tokens: the attempt cannot be used; the policy retries.
            let failure = ProcessCreationFailure(
                httpStatus: nil, message: "reconciled process without readable tokens", retryable: true)
            _ = try await execute(.recordProcessCreationFailed(attempt: target.attempt, failure: failure), id)
            return .done("adopted_unusable")
        }
        let expiry = existing.snapshot.createdAt.map { $0.addingTimeInterval(JourneyTiming.webAppTokenLifetime) }
        try await record(process, target: target, tokenExpiresAt: expiry)
        return .done("adopted")
    }

    /// Get Process with the journey's own backoff (``ResultFetcher``); Unico errors back off here.
    private func fetch(_ id: JourneyID, item: WorkItem) async throws -> WorkResult {
        do {
            switch try await fetcher.fetch(journeyID: id) {
            case .nothingToFetch: return .done("stale")
            case .pending: return .done("pending")
            case .recorded: return .done("result_recorded")
            case .alreadyRecorded: return .done("already_recorded")
            }
        } catch let error as HumanTokenAPIError {
            return later(item, error, "fetch_failed")
        }
    }

    // MARK: - Steps

    /// Create Process (background priority) and its outcome: recorded, left open for reconciliation
    /// (no answer: the intent's `reconcileProcessCreation` item follows), or a failure the retry
    /// policy decides about (429 with its `Retry-After`, 5xx).
    private func create(_ target: AttemptRunner.Target, tokenExpiresAt: Date?) async throws -> WorkResult {
        guard let unico = dependencies.unico[target.environment] else { return noClient() }
        switch await AttemptRunner.create(target, with: unico, priority: .background) {
        case .success(let process):
            try await record(process, target: target, tokenExpiresAt: tokenExpiresAt)
            return .done("process_created")
        case .failure(let error) where AttemptRunner.leavesIntentOpen(error):
            return .done("left_open")
        case .failure(let error):
            try await recordFailure(target, error)
            return .done("creation_failed")
        }
    }

    private func record(_ process: CreatedProcess, target: AttemptRunner.Target, tokenExpiresAt: Date?) async throws {
        let (vault, now, metadata) = (dependencies.vault, clock(), Self.metadata)
        _ = try await database.transaction { connection in
            try AttemptRunner.recordCreated(process, target: target, metadata: metadata, now: now,
                                            tokenExpiresAt: tokenExpiresAt, vault: vault, on: connection)
        }
    }

    private func recordFailure(_ target: AttemptRunner.Target, _ error: HumanTokenAPIError) async throws {
        _ = try await execute(.recordProcessCreationFailed(attempt: target.attempt, failure: AttemptRunner.failure(error)),
                              target.journeyID)
    }

    /// Decides and appends `command` in one transaction at the current time.
    private func execute(_ command: JourneyCommand, _ id: JourneyID) async throws -> JourneyRepository.Outcome {
        let (now, random, metadata) = (clock(), Double.random(in: 0..<1), Self.metadata)
        return try await database.transaction { connection in
            try JourneyRepository.execute(command, journey: id, metadata: metadata, now: now, randomUnit: random,
                                          on: connection)
        }
    }

    private func later(_ item: WorkItem, _ error: HumanTokenAPIError, _ outcome: String) -> WorkResult {
        let wait = max(configuration.backoff(afterTries: item.tries), TimeInterval(error.retryAfter ?? 0))
        return .later(clock().addingTimeInterval(wait), "\(outcome)_\(error.code.rawValue)")
    }

    /// This process has no Unico client for the journey's environment: try again in a minute.
    private func noClient() -> WorkResult {
        .later(clock().addingTimeInterval(60), "no_unico_client")
    }

    private static var metadata: EventMetadata { EventMetadata(correlationID: UUID(), actor: "worker") }
}
