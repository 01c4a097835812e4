import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain

/// The workers' use cases: token expiry, retries (allowed for SDK journeys, a fresh process for
/// link journeys), abandonment of absent users, and reconciliation of a
/// Create Process intent that got no answer. Unico is called with background priority.
extension Journeys {
    /// Records that `attempt`'s token expired; the domain refuses it before the token's lifetime ended.
    @discardableResult
    public func expireToken(_ id: JourneyID, attempt: Int) async throws -> JourneyCommandOutcome {
        try await commands.execute(.expireToken(attempt: attempt), journey: id, metadata: workerMetadata)
    }

    /// Link journeys: records attempt n+1's intent, then creates its process (Unico notifies the
    /// person). SDK journeys: records that attempt n+1 is allowed; the app's token request creates it.
    public func retry(_ id: JourneyID, afterAttempt attempt: Int) async throws -> CreationOutcome {
        let (vault, metadata) = (dependencies.vault, workerMetadata)
        let target = try await commands.transaction { context -> AttemptTarget?? in
            let outcome = try context.execute(.retry(afterAttempt: attempt), journey: id, metadata: metadata)
            if case .retryAllowed? = outcome.events.last { return .some(nil) }
            return .some(try AttemptTarget.current(outcome.state, vault: vault, on: context.connection))
        }
        guard let target else { return .stale }
        guard let target else { return .allowed }
        return try await createProcess(target)
    }

    /// Abandons an SDK journey whose allowed retry the app never asked for (`userAbsent`).
    @discardableResult
    public func abandonAbsent(_ id: JourneyID, afterAttempt attempt: Int) async throws -> JourneyCommandOutcome {
        try await commands.execute(.abandonAbsent(afterAttempt: attempt), journey: id, metadata: workerMetadata)
    }

    /// Abandons a journey whose deadline came before it completed (`deadlineReached`).
    @discardableResult
    public func abandonAtDeadline(_ id: JourneyID) async throws -> JourneyCommandOutcome {
        try await commands.execute(.abandonAtDeadline, journey: id, metadata: workerMetadata)
    }

    /// Abandons a journey still open at its maximum age (`maxAgeReached`).
    @discardableResult
    public func abandonAtMaxAge(_ id: JourneyID) async throws -> JourneyCommandOutcome {
        try await commands.execute(.abandonAtMaxAge, journey: id, metadata: workerMetadata)
    }

    /// Looks the open intent of `state`'s current attempt up by client reference; adopts the
    /// process Unico created for it, or creates it if absent (when `mayCreate`; else answers
    /// `.creation(.leftOpen)`). A failed lookup records nothing, unless it is the `lastTry`: then
    /// the attempt is recorded as failed. Unico is called with `priority`.
    public func reconcileProcessCreation(
        _ state: JourneyState, lastTry: Bool, mayCreate: Bool = true,
        priority: RequestPriority = .background
    ) async throws -> Reconciliation {
        let vault = dependencies.vault
        guard let target = try await database.withConnection({ try AttemptTarget.current(state, vault: vault, on: $0) })
        else { return .creation(.stale) }
        guard let unico = dependencies.unicoClient(target.environment, tenant: target.tenant) else {
            return .creation(.noUnicoClient)
        }
        if unico.configuration.lookup == .none { return try await closeUnknown(state, target) }
        let found: [FoundProcess]
        do {
            found = try await unico.findProcesses(clientReference: target.unicoClientReference, priority: priority)
        } catch let error as HumanTokenAPIError {
            guard lastTry else { return .lookupFailed(error) }
            try await recordFailure(target, error)
            return .gaveUp
        }
        guard let existing = found.first else {
            return .creation(mayCreate ? try await createProcess(target, priority: priority) : .leftOpen)
        }
        guard let process = existing.created else {
            // The lookup did not return the tokens: the attempt cannot be used; the policy retries.
            let failure = ProcessCreationFailure(
                httpStatus: nil, message: "reconciled process without readable tokens", retryable: true)
            try await commands.execute(
                .recordProcessCreationFailed(attempt: target.attempt, failure: failure),
                journey: target.journeyID, metadata: workerMetadata)
            return .adoptedUnusable
        }
        let lifetime = state.attemptLifetime
        let expiry = existing.snapshot.createdAt.map { $0.addingTimeInterval(lifetime) }
        try await recordCreated(process, target: target, tokenExpiresAt: expiry)
        return .adopted
    }

    /// With `lookup: none` nothing tells whether Unico made the process: once the token's lifetime
    /// since the intent has passed, the attempt is closed as unknown (a retryable failure), so the
    /// next attempt gets a new client reference.
    private func closeUnknown(_ state: JourneyState, _ target: AttemptTarget) async throws -> Reconciliation {
        let requestedAt = state.currentAttempt?.requestedAt ?? dependencies.clock()
        let closesAt = requestedAt.addingTimeInterval(JourneyTiming.webAppTokenLifetime)
        guard dependencies.clock() >= closesAt else { return .waiting(until: closesAt) }
        let failure = ProcessCreationFailure(
            httpStatus: nil, message: "Create Process outcome unknown (lookup: none)", retryable: true)
        try await commands.execute(
            .recordProcessCreationFailed(attempt: target.attempt, failure: failure),
            journey: target.journeyID, metadata: workerMetadata)
        return .closedUnknown
    }

    /// Create Process and its outcome: recorded, left open for reconciliation (no answer: the
    /// intent's `reconcileProcessCreation` item follows), or a failure the retry policy decides
    /// about (429 with its `Retry-After`, 5xx).
    private func createProcess(_ target: AttemptTarget, priority: RequestPriority = .background) async throws
        -> CreationOutcome
    {
        guard let unico = dependencies.unicoClient(target.environment, tenant: target.tenant) else { return .noUnicoClient }
        let sentAt = dependencies.clock()
        switch await Self.createProcess(target, with: unico, priority: priority) {
        case .success(let process):
            try await recordCreated(process, target: target, tokenExpiresAt: nil, sentAt: sentAt)
            return .created
        case .failure(let error) where Self.leavesIntentOpen(error):
            return .leftOpen
        case .failure(let error):
            try await recordFailure(target, error)
            return .failed
        }
    }

    private func recordCreated(
        _ process: CreatedProcess, target: AttemptTarget, tokenExpiresAt: Date?,
        sentAt: Date? = nil
    ) async throws {
        let (vault, metadata) = (dependencies.vault, workerMetadata)
        _ = try await commands.transaction { context in
            try Self.recordCreated(
                process, target: target, metadata: metadata, tokenExpiresAt: tokenExpiresAt,
                sentAt: sentAt, vault: vault, in: context)
        }
    }

    private func recordFailure(_ target: AttemptTarget, _ error: HumanTokenAPIError) async throws {
        try await commands.execute(
            .recordProcessCreationFailed(attempt: target.attempt, failure: Self.failure(error)),
            journey: target.journeyID, metadata: workerMetadata)
    }

    /// Metadata of one worker write: a fresh correlation id each.
    private var workerMetadata: EventMetadata { metadata(actor: Self.workerActor) }
}
