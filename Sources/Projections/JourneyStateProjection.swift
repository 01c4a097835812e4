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
public enum JourneyStateProjection {
    /// The projection's name (its `projection_checkpoints` row).
    public static let name = "journey_state"

    /// Table names the projection writes: the live ones or a rebuild's.
    public struct Tables: Sendable, Equatable {
        public var state: String
        public var attempts: String
        public static let live = Tables(state: "journey_state", attempts: "journey_attempts")
        public static let rebuild = Tables(state: "journey_state_rebuild", attempts: "journey_attempts_rebuild")
    }

    static let streamPrefix = "journey-"

    /// Applies `events` (in global order) to `tables` on `connection` (inside the caller's
    /// transaction); `afterEach` runs after each applied event (tests use it to fail mid-batch).
    public static func apply(_ events: [RecordedEvent], tables: Tables = .live, on connection: PostgresConnection,
                             afterEach: (@Sendable (RecordedEvent) throws -> Void)? = nil) throws {
        var states: [String: JourneyState] = [:]
        var positions: [String: Int64] = [:]
        var order: [String] = []
        let decoder = JSONDecoder()
        for event in events {
            defer { }
            guard event.streamName.rawValue.hasPrefix(streamPrefix) else { try afterEach?(event); continue }
            let id = String(event.streamName.rawValue.dropFirst(streamPrefix.count))
            var state: JourneyState
            if let cached = states[id] {
                state = cached
            } else {
                let row = try connection.query(
                    "SELECT state::text FROM \(unsafeSQL: tables.state) WHERE journey_id = \(id)").first
                if let text = try row?.decode(0, as: String.self) {
                    state = try decoder.decode(JourneyState.self, from: Data(text.utf8))
                } else {
                    state = Journey.initialState
                }
                order.append(id)
            }
            if event.streamVersion > Int64(state.version) {
                let domainEvent = try JourneyEvent(type: event.type, data: Data(event.data.text.utf8))
                state = Journey.evolve(state, domainEvent)
                positions[id] = event.position
            }
            states[id] = state
            try afterEach?(event)
        }
        for id in order {
            guard let state = states[id], let position = positions[id] else { continue }
            try write(state, journeyID: id, position: position, tables: tables, on: connection)
        }
    }

    static func write(_ state: JourneyState, journeyID id: String, position: Int64, tables: Tables,
                      on connection: PostgresConnection) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = JSONB(text: String(decoding: try encoder.encode(state), as: UTF8.self))
        let attempt = state.currentAttempt
        let due = state.nextDue
        try connection.query("""
            INSERT INTO \(unsafeSQL: tables.state) (journey_id, status, environment, flow, purpose, client_reference,
                subject_reference, current_attempt, current_process_id, token_expires_at, last_error_code,
                started_at, captured_at, callback_at, result_at, completed_at, abandoned_at, outcome,
                next_due_at, next_due_kind, version, updated_position, state, updated_at)
            VALUES (\(nullable: id), \(nullable: state.status.rawValue), \(nullable: state.environment?.rawValue), \(nullable: state.flow?.rawValue),
                \(nullable: state.purpose?.rawValue), \(nullable: state.clientReference), \(nullable: state.subject?.reference.rawValue),
                \(nullable: state.currentAttemptNumber), \(nullable: attempt?.processID?.rawValue), \(nullable: attempt?.tokenExpiresAt)::timestamptz,
                \(nullable: state.lastErrorCode?.rawValue)::integer, \(nullable: state.startedAt)::timestamptz,
                \(nullable: attempt?.captureOpenedAt)::timestamptz, \(nullable: attempt?.callbackAt)::timestamptz,
                \(nullable: attempt?.resultFetchedAt)::timestamptz, \(nullable: state.completedAt)::timestamptz,
                \(nullable: state.abandonedAt)::timestamptz, \(nullable: state.outcome?.rawValue), \(nullable: due?.at)::timestamptz,
                \(nullable: due?.kind.rawValue), \(nullable: Int64(state.version)), \(nullable: position), \(nullable: json)::jsonb,
                \(nullable: state.updatedAt)::timestamptz)
            ON CONFLICT (journey_id) DO UPDATE SET status = EXCLUDED.status, environment = EXCLUDED.environment,
                flow = EXCLUDED.flow, purpose = EXCLUDED.purpose, client_reference = EXCLUDED.client_reference,
                subject_reference = EXCLUDED.subject_reference, current_attempt = EXCLUDED.current_attempt,
                current_process_id = EXCLUDED.current_process_id, token_expires_at = EXCLUDED.token_expires_at,
                last_error_code = EXCLUDED.last_error_code, started_at = EXCLUDED.started_at,
                captured_at = EXCLUDED.captured_at, callback_at = EXCLUDED.callback_at, result_at = EXCLUDED.result_at,
                completed_at = EXCLUDED.completed_at, abandoned_at = EXCLUDED.abandoned_at, outcome = EXCLUDED.outcome,
                next_due_at = EXCLUDED.next_due_at, next_due_kind = EXCLUDED.next_due_kind, version = EXCLUDED.version,
                updated_position = EXCLUDED.updated_position, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at
            """)
        for attempt in state.attempts {
            let error: String? = attempt.failureReason.map { $0.kind.rawValue }
                ?? attempt.creationFailure.map { "processCreationFailed:\($0.httpStatus.map(String.init) ?? "no-answer")" }
            try connection.query("""
                INSERT INTO \(unsafeSQL: tables.attempts) (journey_id, attempt, process_id, requested_at, created_at,
                    token_expires_at, capture_opened_at, callback_at, result_fetched_at, outcome, error,
                    token_issued_at, callback_outcome, sdk_error_code)
                VALUES (\(nullable: id), \(nullable: attempt.number), \(nullable: attempt.processID?.rawValue), \(nullable: attempt.requestedAt)::timestamptz,
                    \(nullable: attempt.processCreatedAt)::timestamptz, \(nullable: attempt.tokenExpiresAt)::timestamptz,
                    \(nullable: attempt.captureOpenedAt)::timestamptz, \(nullable: attempt.callbackAt)::timestamptz,
                    \(nullable: attempt.resultFetchedAt)::timestamptz, \(nullable: attempt.processResult?.rawValue), \(nullable: error),
                    \(nullable: attempt.firstTokenIssuedAt)::timestamptz, \(nullable: attempt.callbackOutcome.map(Self.outcomeName)),
                    \(nullable: (attempt.callbackOutcome.flatMap(Self.errorCode) ?? attempt.failureReason?.sdkCode)?.rawValue)::integer)
                ON CONFLICT (journey_id, attempt) DO UPDATE SET process_id = EXCLUDED.process_id,
                    requested_at = EXCLUDED.requested_at, created_at = EXCLUDED.created_at,
                    token_expires_at = EXCLUDED.token_expires_at, capture_opened_at = EXCLUDED.capture_opened_at,
                    callback_at = EXCLUDED.callback_at, result_fetched_at = EXCLUDED.result_fetched_at,
                    outcome = EXCLUDED.outcome, error = EXCLUDED.error, token_issued_at = EXCLUDED.token_issued_at,
                    callback_outcome = EXCLUDED.callback_outcome, sdk_error_code = EXCLUDED.sdk_error_code
                """)
        }
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
    public static func state(of journeyID: String, tables: Tables = .live, on connection: PostgresConnection) throws -> JourneyState? {
        guard let text = try connection.query(
            "SELECT state::text FROM \(unsafeSQL: tables.state) WHERE journey_id = \(journeyID)").first?
            .decode(0, as: String.self) else { return nil }
        return try JSONDecoder().decode(JourneyState.self, from: Data(text.utf8))
    }
}

