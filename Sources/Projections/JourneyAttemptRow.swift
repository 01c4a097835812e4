import Foundation
import JourneyDomain

/// An attempt's `journey_attempts` row: its columns' values are computed here only.
struct JourneyAttemptRow: ReadModelRow {
    let journeyID: String
    let attempt: AttemptState

    static let columns: [ReadModelColumn<JourneyAttemptRow>] = [
        .init("journey_id") { .text($0.journeyID) },
        .init("attempt") { .int($0.attempt.number) },
        .init("process_id") { .init(text: $0.attempt.processID?.rawValue) },
        .init("requested_at") { .timestamp($0.attempt.requestedAt) },
        .init("created_at") { .init(timestamp: $0.attempt.processCreatedAt) },
        .init("token_expires_at") { .init(timestamp: $0.attempt.tokenExpiresAt) },
        .init("capture_opened_at") { .init(timestamp: $0.attempt.captureOpenedAt) },
        .init("callback_at") { .init(timestamp: $0.attempt.callbackAt) },
        .init("result_fetched_at") { .init(timestamp: $0.attempt.resultFetchedAt) },
        .init("outcome") { .init(text: $0.attempt.processResult?.rawValue) },
        .init("error") { .init(text: $0.error) },
        .init("token_issued_at") { .init(timestamp: $0.attempt.firstTokenIssuedAt) },
        .init("callback_outcome") { .init(text: $0.attempt.callbackOutcome.map(JourneyStateProjection.outcomeName)) },
        .init("sdk_error_code") { .init(int: $0.sdkErrorCode) },
        .init("closed_by_user_at") { .init(timestamp: $0.attempt.closedByUserAt) },
        .init("session_timed_out_at") { .init(timestamp: $0.attempt.sessionTimedOutAt) },
        .init("link_issued_at") { .init(timestamp: $0.attempt.linkIssuedAt) },
    ]

    /// The columns the daily rollups read (``DailyRollup``).
    static let rollupColumns = columns.filter {
        [
            "journey_id", "attempt", "token_issued_at", "capture_opened_at", "callback_outcome", "result_fetched_at",
            "closed_by_user_at", "session_timed_out_at", "error", "sdk_error_code",
        ].contains($0.name.description)
    }

    /// Why the attempt failed: its failure's kind, or a creation failure with its HTTP status.
    private var error: String? {
        attempt.failureReason.map { $0.kind.rawValue }
            ?? attempt.creationFailure.map { "processCreationFailed:\($0.httpStatus.map(String.init) ?? "no-answer")" }
    }

    /// The SDK code of an error callback, else of the failure.
    private var sdkErrorCode: Int? {
        (attempt.callbackOutcome.flatMap(JourneyStateProjection.errorCode) ?? attempt.failureReason?.sdkCode)?.rawValue
    }
}
