import EventStore
import Foundation
import JourneyDomain
import Observability
import Postgres

/// What a body of ``JourneyCommandRunner/transaction(_:)`` works with: the open transaction and the
/// decision time of this try.
public struct CommandContext {
    /// The connection holding the transaction.
    let connection: PostgresConnection
    /// The decision time of this try.
    public let now: Date
    let random: @Sendable () -> Double
    /// Which try of the transaction this is (1 first; more after version conflicts).
    public let attempt: Int
    /// The timer of the request this transaction serves, if it is timed.
    public let timer: StageTimer?

    /// Runs `body`, adding its time to stage `name` of ``timer`` when there is one.
    public func measure<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        try StageTimer.measure(name, in: timer, body)
    }

    /// Decides and appends `command` in this transaction.
    @discardableResult
    public func execute(
        _ command: JourneyCommand, journey id: JourneyID,
        metadata: EventMetadata
    ) throws -> JourneyCommandOutcome {
        try JourneyRepository.execute(
            command, journey: id, metadata: metadata, now: now, randomUnit: random(),
            on: connection)
    }

    /// Decides `commands` in turn and appends all their events at once; `known` (the stream's
    /// state and version as the caller knows them) skips the load.
    @discardableResult
    public func execute(
        _ commands: [JourneyCommand], journey id: JourneyID, metadata: EventMetadata,
        known: (state: JourneyState, version: Int64)? = nil
    ) throws -> JourneyCommandOutcome {
        try JourneyRepository.execute(
            commands, journey: id, metadata: metadata, now: now, randomUnit: random(),
            known: known, on: connection)
    }

    /// Decides `commands` on `known` and sends their append with this transaction's next
    /// statement or `COMMIT` (``JourneyRepository/enqueue(_:journey:metadata:now:randomUnit:known:on:)``),
    /// for a journey only this transaction can know (an id it just drew).
    @discardableResult
    public func enqueue(
        _ commands: [JourneyCommand], journey id: JourneyID, metadata: EventMetadata,
        known: (state: JourneyState, version: Int64)
    ) throws -> JourneyCommandOutcome {
        try JourneyRepository.enqueue(
            commands, journey: id, metadata: metadata, now: now, randomUnit: random(),
            known: known, on: connection)
    }

    /// The journey's state and version as this transaction sees them.
    public func load(_ id: JourneyID) throws -> (state: JourneyState, version: Int64) {
        try JourneyRepository.load(id, on: connection)
    }
}
