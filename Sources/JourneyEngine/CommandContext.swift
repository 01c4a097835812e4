import EventStore
import Foundation
import JourneyDomain
import JourneyStore
import Postgres

/// What a body of ``JourneyCommandRunner/transaction(_:)`` works with: the open transaction and the
/// decision time of this try.
public struct CommandContext {
    /// The connection holding the transaction.
    public let connection: PostgresConnection
    /// The decision time of this try.
    public let now: Date
    let random: @Sendable () -> Double

    /// Decides and appends `command` in this transaction.
    @discardableResult
    public func execute(_ command: JourneyCommand, journey id: JourneyID,
                        metadata: EventMetadata) throws -> JourneyRepository.Outcome {
        try JourneyRepository.execute(command, journey: id, metadata: metadata, now: now, randomUnit: random(),
                                      on: connection)
    }

    /// Decides and appends `command` over `loaded`, the state ``load(_:)`` gave in this transaction.
    @discardableResult
    public func execute(_ command: JourneyCommand, journey id: JourneyID, loaded: (state: JourneyState, version: Int64),
                        metadata: EventMetadata) throws -> JourneyRepository.Outcome {
        try JourneyRepository.execute(command, journey: id, metadata: metadata, now: now, randomUnit: random(),
                                      loaded: loaded, on: connection)
    }

    /// The journey's state and version as this transaction sees them.
    public func load(_ id: JourneyID) throws -> (state: JourneyState, version: Int64) {
        try JourneyRepository.load(id, on: connection)
    }
}
