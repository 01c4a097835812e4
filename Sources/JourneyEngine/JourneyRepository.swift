import EventStore
import Foundation
import JourneyDomain
import Postgres

/// A journey's event stream: loads it and runs one command through the pure decider, appending
/// the resulting events with the stream's version as the expected version, on a caller's
/// connection. Commands run through the engine's one command path (`JourneyCommandRunner`), which
/// adds the transaction, the retry on conflicts and the wake-up of followers. `package`: the
/// engine's public API takes no connection; tests and JourneyTesting reach it.
///
/// Event ids are not derived from the version: two different commands racing at one version
/// would share ids, and the store would answer the loser with the winner's idempotent result.
package enum JourneyRepository {
    /// The journey's current state and version on `connection` (version 0 and the initial state
    /// when unknown).
    package static func load(_ id: JourneyID, on connection: PostgresConnection) throws -> (state: JourneyState, version: Int64) {
        var state = Journey.initialState
        var version: Int64 = 0
        for recorded in try EventStore.readStream(StreamName.journey(id.rawValue), on: connection) {
            let event = try JourneyEvent(type: recorded.type, text: recorded.data.text)
            state = Journey.evolve(state, event)
            version = recorded.streamVersion
        }
        return (state, version)
    }

    /// One decide-and-append on a caller's connection (inside the caller's transaction if open).
    package static func execute(
        _ command: JourneyCommand, journey id: JourneyID, metadata: EventMetadata,
        now: Date, randomUnit: Double, on connection: PostgresConnection
    ) throws -> JourneyCommandOutcome {
        try execute([command], journey: id, metadata: metadata, now: now, randomUnit: randomUnit, on: connection)
    }

    /// Decides `commands` one after another, each on the state the previous ones left, and
    /// appends all their events in one append (one round trip) at the stream's version.
    ///
    /// `known` skips the load: the caller's (state, version) of the stream, e.g. version 0 and the
    /// initial state for a journey id it just drew. When the stream moved past it, the append
    /// fails `wrong_expected_version` and nothing is written.
    package static func execute(
        _ commands: [JourneyCommand], journey id: JourneyID, metadata: EventMetadata,
        now: Date, randomUnit: Double, known: (state: JourneyState, version: Int64)? = nil,
        on connection: PostgresConnection
    ) throws -> JourneyCommandOutcome {
        let (state, version) = try known ?? load(id, on: connection)
        let (events, decided, newEvents) = try decide(
            commands, state: state, now: now, randomUnit: randomUnit,
            metadata: metadata)
        guard !events.isEmpty else { return JourneyCommandOutcome(events: [], state: state, version: version, positions: []) }
        let result = try EventStore.append(
            newEvents, to: StreamName.journey(id.rawValue), expectedVersion: .exact(version), on: connection)
        return JourneyCommandOutcome(events: events, state: decided, version: result.streamVersion, positions: result.positions)
    }

    /// Decides `commands` on the `known` state and version and sends their append with the
    /// connection's next statement or `COMMIT` (``EventStore/enqueueAppend(_:to:expectedVersion:on:)``):
    /// for a stream only the caller can know, e.g. a journey id it just drew. The outcome's
    /// version is `known`'s plus the events; its positions are empty (not read).
    package static func enqueue(
        _ commands: [JourneyCommand], journey id: JourneyID, metadata: EventMetadata,
        now: Date, randomUnit: Double, known: (state: JourneyState, version: Int64),
        on connection: PostgresConnection
    ) throws -> JourneyCommandOutcome {
        let (events, decided, newEvents) = try decide(
            commands, state: known.state, now: now, randomUnit: randomUnit,
            metadata: metadata)
        guard !events.isEmpty else {
            return JourneyCommandOutcome(events: [], state: known.state, version: known.version, positions: [])
        }
        try EventStore.enqueueAppend(
            newEvents, to: StreamName.journey(id.rawValue), expectedVersion: .exact(known.version), on: connection)
        return JourneyCommandOutcome(
            events: events, state: decided, version: known.version + Int64(newEvents.count), positions: [])
    }

    /// Decides `commands` one after another on `state`: the events, the state they leave and
    /// the events encoded for the store.
    package static func decide(
        _ commands: [JourneyCommand], state: JourneyState, now: Date, randomUnit: Double,
        metadata: EventMetadata
    ) throws -> (events: [JourneyEvent], state: JourneyState, new: [NewEvent]) {
        var events: [JourneyEvent] = []
        var decided = state
        for command in commands {
            let new = try Journey.decide(command, state: decided, now: now, randomUnit: randomUnit)
            decided = Journey.fold(new, from: decided)
            events += new
        }
        let newEvents = try events.map { event in
            let encoded = try event.encoded()
            return NewEvent(
                type: encoded.type,
                data: JSONB(text: String(decoding: encoded.data, as: UTF8.self)), metadata: metadata)
        }
        return (events, decided, newEvents)
    }
}
