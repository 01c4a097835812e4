import EventStore
import Foundation
import JourneyDomain
import Postgres

/// The journey read models `journey_state` (one row per journey) and `journey_attempts` (one row
/// per attempt), folded with the domain's own `Journey.evolve`.
///
/// Each row keeps the encoded `JourneyState` in `state`, so applying an event is: load the stored
/// state, evolve it, write it back with the columns extracted from it. Events whose stream version
/// is not above the stored state's version are skipped (a second guard besides the checkpoint).
/// An event that does not decode stops the projection with an error (delayed, never wrong).
public struct JourneyStateProjection: PipelinedProjection {
    /// The projection's name (its `projection_checkpoints` row).
    public static let name = "journey_state"

    public var name: String { Self.name }
    /// The tables `apply(_:on:)` writes.
    public let tables: Tables

    public init(tables: Tables = .live) {
        self.tables = tables
    }

    public func apply(_ events: [RecordedEvent], on connection: PostgresConnection) throws {
        try Self.apply(events, tables: tables, on: connection)
    }

    /// Table names the projection writes: the live ones or a rebuild's.
    public struct Tables: Sendable, Equatable {
        public var state: String
        public var attempts: String
        /// The daily rollups (``DailyRollup``): `<daily>`, `<daily>_sdk_errors`, `<daily>_time_to_result`, `<daily>_result_bins`.
        public var daily: String
        public var dailySDKErrors: String { daily.replacingOccurrences(of: "journey_daily", with: "journey_daily_sdk_errors") }
        public var dailyTimeToResult: String {
            daily.replacingOccurrences(of: "journey_daily", with: "journey_daily_time_to_result")
        }
        public var dailyResultBins: String { daily.replacingOccurrences(of: "journey_daily", with: "journey_daily_result_bins") }
        public static let live = Tables(state: "journey_state", attempts: "journey_attempts", daily: "journey_daily")
        public static let rebuild = Tables(
            state: "journey_state_rebuild", attempts: "journey_attempts_rebuild",
            daily: "journey_daily_rebuild")
    }

    /// Applies `events` (in global order) to `tables` on `connection` (inside the caller's
    /// transaction).
    ///
    /// Three statements per batch whatever its size: one loads the stored states of every journey
    /// the batch touches, one upserts their `journey_state` rows and one their attempts (multi-row
    /// `INSERT ... SELECT FROM unnest(...)`).
    public static func apply(_ events: [RecordedEvent], tables: Tables = .live, on connection: PostgresConnection) throws {
        try apply(Batch(lazy: events), tables: tables, on: connection)
    }

    /// A batch's journey events (other streams left out), in global order: each with its journey,
    /// version and position, decoded ahead of time (off the writing connection) or when applied.
    public struct Batch: Sendable {
        struct Entry: Sendable {
            let id: String
            let streamVersion: Int64
            let position: Int64
            let event: Payload
        }

        enum Payload: Sendable {
            case decoded(JourneyEvent)
            /// Decoded only if applied (an event at or below the stored version is skipped).
            case stored(type: String, text: String)
        }

        let entries: [Entry]
        /// The journeys the batch touches, in first-seen order.
        var journeyIDs: [String] {
            var seen: Set<String> = []
            return entries.compactMap { seen.insert($0.id).inserted ? $0.id : nil }
        }

        /// Decodes every journey event of `events` now.
        public init(events: [RecordedEvent]) throws {
            entries = try events.compactMap { event in
                guard let id = event.streamName.journeyID else { return nil }
                return Entry(
                    id: id, streamVersion: event.streamVersion, position: event.position,
                    event: .decoded(try JourneyEvent(type: event.type, text: event.data.text)))
            }
        }

        /// Decodes every journey event of `events` (a fold read) now, from their bytes.
        public init(folding events: [EventStore.FoldEvent]) throws {
            let decoder = EventJSON.makeDecoder()
            entries = try events.compactMap { event in
                guard let id = StreamName.journeyID(ofStream: event.streamName) else { return nil }
                return Entry(
                    id: id, streamVersion: event.streamVersion, position: event.position,
                    event: .decoded(try JourneyEvent(type: event.type, utf8: event.data, decoder: decoder)))
            }
        }

        init(lazy events: [RecordedEvent]) {
            entries = events.compactMap { event in
                guard let id = event.streamName.journeyID else { return nil }
                return Entry(
                    id: id, streamVersion: event.streamVersion, position: event.position,
                    event: .stored(type: event.type, text: event.data.text))
            }
        }
    }

    /// `apply` for a prepared batch.
    public static func apply(_ batch: Batch, tables: Tables = .live, on connection: PostgresConnection) throws {
        for write in try writes(batch, tables: tables, on: connection) { try connection.query(write) }
    }

    /// Loads the batch's stored states on `connection` and folds it; returns the statements that
    /// write the result, in order: the rollups moved from the changed journeys' stored rows to
    /// their new ones, then their `journey_state` and `journey_attempts` upserts (none when
    /// nothing changed). The runner sends them in one pipeline with its checkpoint and COMMIT.
    public func writes(for events: [RecordedEvent], on connection: PostgresConnection) throws -> [PostgresQuery] {
        try Self.writes(Batch(lazy: events), tables: tables, on: connection)
    }

    static func writes(_ batch: Batch, tables: Tables, on connection: PostgresConnection) throws -> [PostgresQuery] {
        var states = try load(batch.journeyIDs, tables: tables, on: connection)
        let changed = try fold(batch, into: &states)
        guard let rows = try Rows(changed, rollup: true), let delta = rows.rollup else { return [] }
        let ids = try DailyRollup.ids(changed.map(\.id))
        return [DailyRollup.delta(ids, to: delta, tables: tables)] + write(rows, tables: tables)
    }

    /// Evolves `states` (the stored states of the batch's journeys; absent ones start from the
    /// initial state) with the batch's events; returns the changed journeys, in first-seen order,
    /// with the position of the last event applied to each.
    static func fold(_ batch: Batch, into states: inout [String: JourneyState]) throws -> [Changed] {
        var positions: [String: Int64] = [:]
        for entry in batch.entries {
            let id = entry.id
            let state = states[id] ?? Journey.initialState
            if entry.streamVersion > Int64(state.version) {
                let domainEvent: JourneyEvent
                switch entry.event {
                case .decoded(let event): domainEvent = event
                case .stored(let type, let text): domainEvent = try JourneyEvent(type: type, text: text)
                }
                states[id] = Journey.evolve(state, domainEvent)
                positions[id] = entry.position
            }
        }
        return batch.journeyIDs.compactMap { id in
            states[id].flatMap { state in positions[id].map { Changed(id: id, state: state, position: $0) } }
        }
    }

    /// A journey whose row must be written.
    struct Changed {
        let id: String
        let state: JourneyState
        /// Position of the last event applied to it.
        let position: Int64
    }

    /// The stored states of `ids` (absent ones are left out), in one query.
    static func load(_ ids: [String], tables: Tables, on connection: PostgresConnection) throws -> [String: JourneyState] {
        guard !ids.isEmpty else { return [:] }
        let decoder = JSONDecoder()
        let list = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
        var states: [String: JourneyState] = [:]
        for row in try connection.query(ProjectionsStatements.states(ids: list, table: tables.state)) {
            states[try row.decode(0)] = try decoder.decode(JourneyState.self, from: Data(try row.decode(1, as: String.self).utf8))
        }
        return states
    }

    /// The rows of changed journeys, encoded as JSON arrays for `json_populate_recordset`: one
    /// bind per table, no per-value array escaping.
    struct Rows: Sendable {
        let states: String
        let attempts: String?
        /// The rollups' columns of the same rows (``DailyRollup/delta(_:to:tables:)``), when asked for.
        let rollup: DailyRollup.Rows?

        /// nil when nothing changed.
        init?(_ changed: [Changed], rollup: Bool = false) throws {
            guard !changed.isEmpty else { return nil }
            let stateRows = changed.map { JourneyStateRow(id: $0.id, state: $0.state, position: $0.position) }
            states = try ReadModelRowsJSON.states(stateRows)
            let attempts = changed.flatMap { journey in
                journey.state.attempts.map { JourneyAttemptRow(journeyID: journey.id, attempt: $0) }
            }
            self.attempts = attempts.isEmpty ? nil : try ReadModelRowsJSON.attempts(attempts)
            self.rollup =
                rollup
                ? DailyRollup.Rows(
                    states: try ReadModelRowsJSON.rollupStates(stateRows),
                    attempts: try ReadModelRowsJSON.rollupAttempts(attempts)) : nil
        }
    }

    /// Upserts `rows`: one statement per table.
    static func write(_ rows: Rows, tables: Tables, on connection: PostgresConnection) throws {
        for upsert in write(rows, tables: tables) { try connection.query(upsert) }
    }

    /// The upserts of `rows`: one statement per table.
    static func write(_ rows: Rows, tables: Tables) -> [PostgresQuery] {
        [ProjectionsStatements.upsertStates(rows.states, table: tables.state)]
            + (rows.attempts.map { [ProjectionsStatements.upsertAttempts($0, table: tables.attempts)] } ?? [])
    }

    /// `success` or `error`: the first callback of an attempt, as the reports count it.
    static func outcomeName(_ outcome: CallbackOutcome) -> String {
        if case .error = outcome { return "error" }
        return "success"
    }

    /// The SDK code of an error callback.
    static func errorCode(_ outcome: CallbackOutcome) -> SDKErrorCode? {
        if case .error(let code) = outcome { return code }
        return nil
    }

    /// The stored state of a journey, if projected.
    public static func state(of journeyID: String, tables: Tables = .live, on connection: PostgresConnection) throws
        -> JourneyState?
    {
        guard
            let text = try connection.query(ProjectionsStatements.state(of: journeyID, table: tables.state)).first?
                .decode(0, as: String.self)
        else { return nil }
        return try JSONDecoder().decode(JourneyState.self, from: Data(text.utf8))
    }
}
