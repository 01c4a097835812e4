import Foundation
import JSONBytes
import JourneyDomain
import Postgres
import Timestamps

/// `journey_state` and `journey_attempts` rows written by hand straight into `COPY` text, in the
/// catalog's column order: the same fields as ``StateRow`` / ``AttemptRow`` (what the live
/// projection upserts and the tests' `CopyRowEncoder` writes), without building those rows, their strings
/// or the state's JSON apart. A column neither knows is NULL, as with `json_populate_recordset`.
struct JourneyCopyRows {
    /// A `journey_state` column this writer fills (named as the column, like ``StateRow``'s members).
    enum StateField: String {
        case journey_id, status, environment, flow, purpose, client_reference, subject_reference, current_attempt
        case current_process_id, token_expires_at, last_error_code, started_at, captured_at, callback_at, result_at
        case completed_at, abandoned_at, outcome, next_due_at, next_due_kind, version, updated_position, state
        case updated_at, next_due_attempt, tenant
    }

    /// A `journey_attempts` column this writer fills (named as the column, like ``AttemptRow``'s members).
    enum AttemptField: String {
        case journey_id, attempt, process_id, requested_at, created_at, token_expires_at, capture_opened_at
        case callback_at, result_fetched_at, outcome, error, token_issued_at, callback_outcome, sdk_error_code
        case closed_by_user_at, session_timed_out_at, link_issued_at
    }

    private let stateFields: [StateField?]
    private let attemptFields: [AttemptField?]

    init(columns: ReadModelCopy.Columns) {
        stateFields = columns.state.map(StateField.init(rawValue:))
        attemptFields = columns.attempts.map(AttemptField.init(rawValue:))
    }

    /// Appends the `journey_state` row of `journey`.
    func appendState(id: String, state journey: JourneyState, position: Int64, to text: inout PostgresCopyText) throws {
        let attempt = journey.currentAttempt
        let due = journey.nextDue
        for field in stateFields {
            guard let field else { text.appendNull(); continue }
            switch field {
            case .journey_id: text.append(id)
            case .status: text.append(journey.status.rawValue)
            case .environment: text.append(journey.environment?.rawValue)
            case .flow: text.append(journey.flow?.rawValue)
            case .purpose: text.append(journey.purpose?.rawValue)
            case .client_reference: text.append(journey.clientReference)
            case .subject_reference: text.append(journey.subject?.reference.rawValue)
            case .current_attempt: text.append(Int64(journey.currentAttemptNumber))
            case .current_process_id: text.append(attempt?.processID?.rawValue)
            case .token_expires_at: Self.timestamp(attempt?.tokenExpiresAt, &text)
            case .last_error_code: text.append(journey.lastErrorCode.map { Int64($0.rawValue) })
            case .started_at: Self.timestamp(journey.startedAt, &text)
            case .captured_at: Self.timestamp(attempt?.captureOpenedAt, &text)
            case .callback_at: Self.timestamp(attempt?.callbackAt, &text)
            case .result_at: Self.timestamp(attempt?.resultFetchedAt, &text)
            case .completed_at: Self.timestamp(journey.completedAt, &text)
            case .abandoned_at: Self.timestamp(journey.abandonedAt, &text)
            case .outcome: text.append(journey.outcome?.rawValue)
            case .next_due_at: Self.timestamp(due?.at, &text)
            case .next_due_kind: text.append(due?.kind.rawValue)
            case .version: text.append(Int64(journey.version))
            case .updated_position: text.append(position)
            case .state:
                try text.appendPreEscaped { bytes in
                    var json = JSONWriter(copyEscaped: true)
                    swap(&json.bytes, &bytes)
                    defer { swap(&json.bytes, &bytes) }
                    try JourneyStateJSON.write(journey, to: &json)
                }
            case .updated_at: Self.timestamp(journey.updatedAt, &text)
            case .next_due_attempt: text.append(due.map { Int64($0.attempt) })
            case .tenant: text.append(journey.tenantName)
            }
        }
        text.endRow()
    }

    /// Appends the `journey_attempts` row of `attempt`.
    func appendAttempt(journeyID: String, attempt: AttemptState, to text: inout PostgresCopyText) {
        for field in attemptFields {
            guard let field else { text.appendNull(); continue }
            switch field {
            case .journey_id: text.append(journeyID)
            case .attempt: text.append(Int64(attempt.number))
            case .process_id: text.append(attempt.processID?.rawValue)
            case .requested_at: Self.timestamp(attempt.requestedAt, &text)
            case .created_at: Self.timestamp(attempt.processCreatedAt, &text)
            case .token_expires_at: Self.timestamp(attempt.tokenExpiresAt, &text)
            case .capture_opened_at: Self.timestamp(attempt.captureOpenedAt, &text)
            case .callback_at: Self.timestamp(attempt.callbackAt, &text)
            case .result_fetched_at: Self.timestamp(attempt.resultFetchedAt, &text)
            case .outcome: text.append(attempt.processResult?.rawValue)
            case .error:
                if let reason = attempt.failureReason {
                    text.append(reason.kind.rawValue)
                } else if let failure = attempt.creationFailure {
                    text.append("processCreationFailed:\(failure.httpStatus.map(String.init) ?? "no-answer")")
                } else {
                    text.appendNull()
                }
            case .token_issued_at: Self.timestamp(attempt.firstTokenIssuedAt, &text)
            case .callback_outcome: text.append(attempt.callbackOutcome.map(JourneyStateProjection.outcomeName))
            case .sdk_error_code:
                let code = attempt.callbackOutcome.flatMap(JourneyStateProjection.errorCode) ?? attempt.failureReason?.sdkCode
                text.append(code.map { Int64($0.rawValue) })
            case .closed_by_user_at: Self.timestamp(attempt.closedByUserAt, &text)
            case .session_timed_out_at: Self.timestamp(attempt.sessionTimedOutAt, &text)
            case .link_issued_at: Self.timestamp(attempt.linkIssuedAt, &text)
            }
        }
        text.endRow()
    }

    private static func timestamp(_ date: Date?, _ text: inout PostgresCopyText) {
        guard let date else { return text.appendNull() }
        text.appendPreEscaped { RFC3339.append(date, to: &$0) }
    }
}
