import EventStore
import Foundation
import JourneyDomain
import Observability
import Postgres

/// The one way to run journey commands: a short transaction at a decision time from the clock
/// (or, for a single command, `execute`: a load, then a group-committed append), retried from a
/// fresh load when another writer moved the stream first, and a NOTIFY to the log's followers
/// (projection runner, webhook follower) after every commit.
///
/// A command retried after an ambiguous failure is decided again on the reloaded state, where
/// the decider treats it as a duplicate. Domain refusals (`DomainError`) are thrown as they are
/// and never retried.
public struct JourneyCommandRunner: Sendable {
    /// Tries when another writer moved the stream first (`wrong_expected_version`, `order_conflict`).
    public static let maximumAttempts = 5

    public let database: PostgresClient
    /// The decision time of each try.
    public let clock: @Sendable () -> Date
    /// The random unit (0..<1) of each decision (retry jitter).
    public let random: @Sendable () -> Double
    /// The log: group-committed appends, and the wake-up of its followers after each commit.
    /// One per process (the composition root, `JourneyApp`, makes it), so appends batch together.
    public let events: EventStore

    /// Runs commands on `events`' database.
    public init(
        events: EventStore, clock: @escaping @Sendable () -> Date = Date.init,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.database = events.client
        self.clock = clock
        self.random = random
        self.events = events
    }

    /// Runs `body` in one transaction, retrying it whole on version conflicts, then notifies
    /// followers (unless `notify` is false: the caller then calls ``notifyAppended()`` itself).
    ///
    /// In a timed task (`StageTimer.current`), the time to the body (pool, thread hop; `BEGIN` leaves
    /// with the body's first statement) is stage `transaction_begin` and the time after it
    /// (`COMMIT` with the writes queued before it, hop back) `transaction_commit`.
    public func transaction<T: Sendable>(
        notify: Bool = true,
        _ body: @escaping @Sendable (CommandContext) throws -> T
    ) async throws -> T {
        var tries = 0
        let timer = StageTimer.current
        while true {
            tries += 1
            let (now, attempt) = (clock(), tries)
            do {
                let called = ContinuousClock.now
                let (result, ended) = try await database.transaction { [random] connection in
                    timer?.record(StartStage.transactionBegin, ContinuousClock.now - called)
                    let result = try body(
                        CommandContext(connection: connection, now: now, random: random, attempt: attempt, timer: timer))
                    return (result, ContinuousClock.now)
                }
                timer?.record(StartStage.transactionCommit, ContinuousClock.now - ended)
                if notify { events.notifyAppended() }
                return result
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
                if tries >= Self.maximumAttempts { throw error }
            }
        }
    }

    /// Wakes followers of the log (coalesced; returns at once).
    public func notifyAppended() {
        events.notifyAppended()
    }

    /// Decides one command on the journey as loaded and appends its events group-committed with
    /// concurrent appends (``EventStore/append(_:to:expectedVersion:)``) at the loaded version:
    /// no transaction is held across the load and the decision, and a refused append fails
    /// alone. When another writer moved the stream first, it loads, decides and appends again
    /// (up to ``maximumAttempts`` tries). Followers are woken after the append.
    @discardableResult
    public func execute(
        _ command: JourneyCommand, journey id: JourneyID,
        metadata: EventMetadata
    ) async throws -> JourneyCommandOutcome {
        var tries = 0
        while true {
            tries += 1
            let now = clock()
            let (state, version) = try await load(id)
            let (events, decided, newEvents) = try JourneyRepository.decide(
                [command], state: state, now: now,
                randomUnit: random(), metadata: metadata)
            guard !events.isEmpty else {
                return JourneyCommandOutcome(events: [], state: state, version: version, positions: [])
            }
            do {
                let result = try await self.events.append(
                    newEvents, to: StreamName.journey(id.rawValue),
                    expectedVersion: .exact(version))
                return JourneyCommandOutcome(
                    events: events, state: decided, version: result.streamVersion,
                    positions: result.positions)
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
                if tries >= Self.maximumAttempts { throw error }
            }
        }
    }

    /// The journey's current state and version (version 0 and the initial state when unknown).
    public func load(_ id: JourneyID) async throws -> (state: JourneyState, version: Int64) {
        try await database.withConnection { try JourneyRepository.load(id, on: $0) }
    }
}
