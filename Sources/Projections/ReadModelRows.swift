import Foundation
import JourneyDomain
import Timestamps

/// A `journey_state` row as JSON for `json_populate_recordset`: keys are the column names,
/// timestamps RFC 3339 text, absent values omitted (NULL); `state` nests the encoded state
/// (dates as `JSONEncoder`'s default, what ``JourneyStateProjection/state(of:tables:on:)`` reads).
struct StateRow: Encodable {
    let journey_id: String
    let status: String
    let environment: String?
    let flow: String?
    let purpose: String?
    let client_reference: String?
    let subject_reference: String?
    let current_attempt: Int
    let current_process_id: String?
    let token_expires_at: String?
    let last_error_code: Int?
    let started_at: String?
    let captured_at: String?
    let callback_at: String?
    let result_at: String?
    let completed_at: String?
    let abandoned_at: String?
    let outcome: String?
    let next_due_at: String?
    let next_due_kind: String?
    let version: Int64
    let updated_position: Int64
    let state: JourneyState
    let updated_at: String?
    let next_due_attempt: Int?
    /// Always written: the column is NOT NULL, and `json_populate_recordset` ignores defaults.
    let tenant: String

    init(id: String, state: JourneyState, position: Int64) {
        let attempt = state.currentAttempt
        let due = state.nextDue
        journey_id = id
        status = state.status.rawValue
        environment = state.environment?.rawValue
        flow = state.flow?.rawValue
        purpose = state.purpose?.rawValue
        client_reference = state.clientReference
        subject_reference = state.subject?.reference.rawValue
        tenant = state.tenantName
        current_attempt = state.currentAttemptNumber
        current_process_id = attempt?.processID?.rawValue
        token_expires_at = timestamp(attempt?.tokenExpiresAt)
        last_error_code = state.lastErrorCode?.rawValue
        started_at = timestamp(state.startedAt)
        captured_at = timestamp(attempt?.captureOpenedAt)
        callback_at = timestamp(attempt?.callbackAt)
        result_at = timestamp(attempt?.resultFetchedAt)
        completed_at = timestamp(state.completedAt)
        abandoned_at = timestamp(state.abandonedAt)
        outcome = state.outcome?.rawValue
        next_due_at = timestamp(due?.at)
        next_due_kind = due?.kind.rawValue
        version = Int64(state.version)
        updated_position = position
        self.state = state
        updated_at = timestamp(state.updatedAt)
        next_due_attempt = due?.attempt
    }
}

/// A `journey_attempts` row as JSON for `json_populate_recordset` (see ``StateRow``).
struct AttemptRow: Encodable {
    let journey_id: String
    let attempt: Int
    let process_id: String?
    let requested_at: String?
    let created_at: String?
    let token_expires_at: String?
    let capture_opened_at: String?
    let callback_at: String?
    let result_fetched_at: String?
    let outcome: String?
    let error: String?
    let token_issued_at: String?
    let callback_outcome: String?
    let sdk_error_code: Int?
    let closed_by_user_at: String?
    let session_timed_out_at: String?
    let link_issued_at: String?

    init(journeyID: String, attempt: AttemptState) {
        journey_id = journeyID
        self.attempt = attempt.number
        process_id = attempt.processID?.rawValue
        requested_at = timestamp(attempt.requestedAt)
        created_at = timestamp(attempt.processCreatedAt)
        token_expires_at = timestamp(attempt.tokenExpiresAt)
        capture_opened_at = timestamp(attempt.captureOpenedAt)
        callback_at = timestamp(attempt.callbackAt)
        result_fetched_at = timestamp(attempt.resultFetchedAt)
        outcome = attempt.processResult?.rawValue
        error =
            attempt.failureReason.map { $0.kind.rawValue }
            ?? attempt.creationFailure.map { "processCreationFailed:\($0.httpStatus.map(String.init) ?? "no-answer")" }
        token_issued_at = timestamp(attempt.firstTokenIssuedAt)
        callback_outcome = attempt.callbackOutcome.map(JourneyStateProjection.outcomeName)
        sdk_error_code =
            (attempt.callbackOutcome.flatMap(JourneyStateProjection.errorCode) ?? attempt.failureReason?.sdkCode)?.rawValue
        closed_by_user_at = timestamp(attempt.closedByUserAt)
        session_timed_out_at = timestamp(attempt.sessionTimedOutAt)
        link_issued_at = timestamp(attempt.linkIssuedAt)
    }
}

private func timestamp(_ date: Date?) -> String? { date.map(RFC3339.string(from:)) }
