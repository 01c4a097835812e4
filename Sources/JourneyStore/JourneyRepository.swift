import EventStore
import Foundation
import JourneyDomain
import Postgres

/// Loads a journey from its stream, runs a command through the pure decider and appends the
/// resulting events with the stream's version as the expected version.
///
/// A command retried after an ambiguous failure (the connection dropped after COMMIT) is
/// decided again on the reloaded state, where the decider treats it as a duplicate. Event ids
/// are not derived from the version: two different commands racing at one version would share
/// ids, and the store would answer the loser with the winner's idempotent result.
public struct JourneyRepository: Sendable {
    public struct Configuration: Sendable {
        /// Tries when another writer moved the stream first. Default 5.
        public var maxAttempts = 5
        public init(maxAttempts: Int = 5) { self.maxAttempts = maxAttempts }
    }

    /// What a command did.
    public struct Outcome: Sendable {
        public let events: [JourneyEvent]
        public let state: JourneyState
        /// The stream's version after the command.
        public let version: Int64
        /// Global positions of the appended events (empty for a duplicate command).
        public let positions: [Int64]
    }

    public let store: EventStore
    public let configuration: Configuration
    public let clock: @Sendable () -> Date
    public let random: @Sendable () -> Double

    public init(store: EventStore, configuration: Configuration = Configuration(),
                clock: @escaping @Sendable () -> Date = Date.init,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.store = store
        self.configuration = configuration
        self.clock = clock
        self.random = random
    }

    /// The stream of a journey: `journey-<id>`.
    public static func stream(_ id: JourneyID) -> StreamName { StreamName("journey-\(id.rawValue)") }

    /// The journey's current state and version (version 0 and the initial state when unknown).
    public func load(_ id: JourneyID) async throws -> (state: JourneyState, version: Int64) {
        try await store.client.withConnection { try Self.load(id, on: $0) }
    }

    /// `load` on a caller's connection.
    public static func load(_ id: JourneyID, on connection: PostgresConnection) throws -> (state: JourneyState, version: Int64) {
        var state = Journey.initialState
        var version: Int64 = 0
        let rows = try connection.query("""
            SELECT stream_version, event_type, data::text FROM events
            WHERE stream_name = \(stream(id).rawValue) ORDER BY stream_version
            """)
        for row in rows {
            let event = try JourneyEvent(type: try row.decode(1), data: Data(try row.decode(2, as: String.self).utf8))
            state = Journey.evolve(state, event)
            version = try row.decode(0)
        }
        return (state, version)
    }

    /// Decides and appends, retrying from a fresh load when another writer appended first.
    /// Domain refusals (`DomainError`) are thrown as they are.
    public func execute(_ command: JourneyCommand, journey id: JourneyID, metadata: EventMetadata) async throws -> Outcome {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await store.client.withConnection { [clock, random] connection in
                    try Self.execute(command, journey: id, metadata: metadata, now: clock(), randomUnit: random(), on: connection)
                }
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion || error.code == .orderConflict {
                if attempt >= configuration.maxAttempts { throw error }
            }
        }
    }

    /// One decide-and-append on a caller's connection (inside the caller's transaction if open).
    public static func execute(_ command: JourneyCommand, journey id: JourneyID, metadata: EventMetadata,
                               now: Date, randomUnit: Double, on connection: PostgresConnection) throws -> Outcome {
        let (state, version) = try load(id, on: connection)
        let events = try Journey.decide(command, state: state, now: now, randomUnit: randomUnit)
        guard !events.isEmpty else { return Outcome(events: [], state: state, version: version, positions: []) }
        let stream = stream(id)
        let newEvents = try events.map { event in
            let encoded = try event.encoded()
            return NewEvent(type: encoded.type,
                            data: JSONB(text: String(decoding: encoded.data, as: UTF8.self)), metadata: metadata)
        }
        let result = try EventStore.append(newEvents, to: stream, expectedVersion: .exact(version), on: connection)
        return Outcome(events: events, state: Journey.fold(events, from: state), version: result.streamVersion,
                       positions: result.positions)
    }
}
