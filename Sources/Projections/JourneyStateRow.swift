import Foundation
import JourneyDomain

/// A journey's `journey_state` row: its columns' values are computed here only.
struct JourneyStateRow: ReadModelRow {
    let id: String
    let state: JourneyState
    /// The global position of the last event applied.
    let position: Int64
    private let attempt: AttemptState?
    private let due: DueWork?

    init(id: String, state: JourneyState, position: Int64) {
        self.id = id
        self.state = state
        self.position = position
        attempt = state.currentAttempt
        due = state.nextDue
    }

    /// `tenant` is always written: the column is NOT NULL, and `json_populate_recordset` ignores
    /// defaults.
    static let columns: [ReadModelColumn<JourneyStateRow>] = [
        .init("journey_id") { .text($0.id) },
        .init("status") { .text($0.state.status.rawValue) },
        .init("environment") { .init(text: $0.state.environment?.rawValue) },
        .init("flow") { .init(text: $0.state.flow?.rawValue) },
        .init("purpose") { .init(text: $0.state.purpose?.rawValue) },
        .init("client_reference") { .init(text: $0.state.clientReference) },
        .init("subject_reference") { .init(text: $0.state.subject?.reference.rawValue) },
        .init("current_attempt") { .int($0.state.currentAttemptNumber) },
        .init("current_process_id") { .init(text: $0.attempt?.processID?.rawValue) },
        .init("token_expires_at") { .init(timestamp: $0.attempt?.tokenExpiresAt) },
        .init("last_error_code") { .init(int: $0.state.lastErrorCode?.rawValue) },
        .init("started_at") { .init(timestamp: $0.state.startedAt) },
        .init("captured_at") { .init(timestamp: $0.attempt?.captureOpenedAt) },
        .init("callback_at") { .init(timestamp: $0.attempt?.callbackAt) },
        .init("result_at") { .init(timestamp: $0.attempt?.resultFetchedAt) },
        .init("completed_at") { .init(timestamp: $0.state.completedAt) },
        .init("abandoned_at") { .init(timestamp: $0.state.abandonedAt) },
        .init("outcome") { .init(text: $0.state.outcome?.rawValue) },
        .init("next_due_at") { .init(timestamp: $0.due?.at) },
        .init("next_due_kind") { .init(text: $0.due?.kind.rawValue) },
        .init("version") { .int($0.state.version) },
        .init("updated_position") { .int(Int($0.position)) },
        .init("state") { .state($0.state) },
        .init("updated_at") { .init(timestamp: $0.state.updatedAt) },
        .init("next_due_attempt") { .init(int: $0.due?.attempt) },
        .init("tenant") { .text($0.state.tenantName) },
    ]

    /// The columns the daily rollups read (``DailyRollup``).
    static let rollupColumns = columns.filter {
        [
            "journey_id", "status", "environment", "flow", "purpose", "current_attempt", "started_at", "callback_at",
            "result_at", "outcome", "tenant",
        ].contains($0.name.description)
    }
}
