import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import Postgres

/// Performs one due item against the journey's own event stream, never against the read model:
/// the item runs only if the freshly loaded state still has that work due, and every append goes
/// through the domain with the stream's version as the expected version. A stale item (the
/// journey moved on, or the read model lags behind an append) finishes as `stale`. Any item of a
/// journey still open past its maximum age abandons it (`maxAgeReached`) instead: work that is
/// only ever tried again (a Get Process failing for ever) cannot keep a journey open.
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

    /// The use cases the items run.
    public let journeys: Journeys
    public let configuration: Configuration
    let clock: @Sendable () -> Date

    /// Performs items with the process's `journeys`; decision times come from its dependencies' clock.
    public init(journeys: Journeys, configuration: Configuration = Configuration()) {
        self.journeys = journeys
        self.configuration = configuration
        self.clock = journeys.dependencies.clock
    }

    public var database: PostgresClient { journeys.database }
    public var dependencies: EngineDependencies { journeys.dependencies }

    /// Performs `item`; throws only database failures (the caller releases the item).
    public func perform(_ item: WorkItem) async throws -> WorkResult {
        let id = item.journeyID
        let (state, version) = try await journeys.load(id)
        let now = clock()
        if version > 0, state.isPastMaxAge(now) {
            return try await abandonAtMaxAge(id, now: now)
        }
        guard version > 0, let due = state.nextDue, due.kind == item.kind, due.attempt == item.attempt else {
            return .done("stale")
        }
        if due.at.timeIntervalSince(now) > 0.001 {
            // Same work, later time (a newer fetch schedule): the read model will copy the new item.
            return abs(due.at.timeIntervalSince(item.dueAt)) < 0.001 ? .later(due.at, "not_due") : .done("stale")
        }
        do {
            switch item.kind {
            case .expireToken:
                if state.mayProbeResult(item.attempt) {
                    // The capture was opened: ask Unico before cutting it short (no approval is lost
                    // when both the app's report and Unico's webhook went missing).
                    do {
                        if case .recorded = try await journeys.probeResult(id, attempt: item.attempt) {
                            return .done("result_before_expiry")
                        }
                    } catch let error as HumanTokenAPIError {
                        return later(item, error, "probe_failed")
                    }
                }
                try await journeys.expireToken(id, attempt: item.attempt)
                return .done("expired")
            case .retry:
                return result(of: try await journeys.retry(id, afterAttempt: item.attempt))
            case .reconcileProcessCreation:
                return try await reconcile(state, item: item)
            case .fetchResult where state.awaitsFinishProbe(item.attempt):
                // A 73302 after an opened capture: the finish answer may have been lost while Unico
                // finished. Asked once (recorded either way) before the retry goes ahead.
                do {
                    if case .recorded = try await journeys.probeResult(id, attempt: item.attempt) {
                        return .done("result_after_73302")
                    }
                    return .done("probed_unfinished")
                } catch let error as HumanTokenAPIError {
                    return later(item, error, "probe_failed")
                }
            case .fetchResult:
                return try await fetch(id, item: item)
            case .abandonAbsent:
                try await journeys.abandonAbsent(id, afterAttempt: item.attempt)
                return .done("abandoned_absent")
            case .abandonAtDeadline:
                try await journeys.abandonAtDeadline(id)
                return .done("abandoned_at_deadline")
            case .abandonAtMaxAge:
                return try await abandonAtMaxAge(id, now: now)
            }
        } catch let refusal as DomainError {
            return .done("refused_\(refusal.code.rawValue)")
        } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
            return .later(now, "conflict")
        }
    }

    // MARK: - Kinds

    /// Abandons a journey still open at its maximum age, whatever item found it so.
    private func abandonAtMaxAge(_ id: JourneyID, now: Date) async throws -> WorkResult {
        do {
            try await journeys.abandonAtMaxAge(id)
            return .done("abandoned_at_max_age")
        } catch let refusal as DomainError {
            return .done("refused_\(refusal.code.rawValue)")
        } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
            return .later(now, "conflict")
        }
    }

    /// Adopts the open intent's process, or creates it if Unico has none; a failed lookup backs
    /// off until the last of ``Configuration/reconcileTries``.
    private func reconcile(_ state: JourneyState, item: WorkItem) async throws -> WorkResult {
        switch try await journeys.reconcileProcessCreation(state, lastTry: item.tries >= configuration.reconcileTries) {
        case .lookupFailed(let error):
            return later(item, error, "lookup_failed")
        case .gaveUp:
            return .done("creation_failed")
        case .adopted:
            return .done("adopted")
        case .adoptedUnusable:
            return .done("adopted_unusable")
        case .waiting(let until):
            return .later(until, "lookup_off_waiting")
        case .closedUnknown:
            return .done("closed_unknown")
        case .creation(.leftOpen):
            // Still no answer: this same item (same intent) must run again, after a backoff.
            return .later(clock().addingTimeInterval(configuration.backoff(afterTries: item.tries)), "left_open")
        case .creation(let creation):
            return result(of: creation)
        }
    }

    /// Get Process with the journey's own backoff; Unico errors back off here.
    private func fetch(_ id: JourneyID, item: WorkItem) async throws -> WorkResult {
        do {
            switch try await journeys.fetchResult(id, attempt: item.attempt) {
            case .nothingToFetch: return .done("stale")
            case .pending: return .done("pending")
            case .recorded: return .done("result_recorded")
            case .alreadyRecorded: return .done("already_recorded")
            }
        } catch let error as HumanTokenAPIError {
            return later(item, error, "fetch_failed")
        }
    }

    // MARK: - Outcomes

    /// The item's ending after a Create Process (a retry's, or a reconciled intent's).
    private func result(of creation: CreationOutcome) -> WorkResult {
        switch creation {
        case .stale: .done("stale")
        case .noUnicoClient: noClient()
        case .created: .done("process_created")
        case .leftOpen: .done("left_open")
        case .failed: .done("creation_failed")
        case .allowed: .done("retry_allowed")
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
}
