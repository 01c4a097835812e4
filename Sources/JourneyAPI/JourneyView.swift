import Foundation
import JourneyDomain

/// A journey as `GET /v1/journeys/{id}` shows it: state and step times, no personal data.
struct JourneyView: Encodable, Sendable {
    struct ErrorCode: Encodable, Sendable {
        var code: Int
        var meaning: String
        var category: String
        var action: String
        var retryable: Bool
    }

    struct Attempt: Encodable, Sendable {
        var number: Int
        var trigger: String
        var requestedAt: Date
        var processCreatedAt: Date?
        var creationFailedAt: Date?
        var tokenExpiresAt: Date?
        var firstTokenIssuedAt: Date?
        var captureOpenedAt: Date?
        var callbackAt: Date?
        var resultFetchedAt: Date?
        var tokenExpiredAt: Date?
        var failedAt: Date?
        var failureReason: AttemptFailureReason?
        var retryAt: Date?
    }

    var journeyId: String
    var status: String
    var attempt: Int
    var environment: String?
    var flow: String?
    var purpose: String?
    var clientReference: String?
    /// The pseudonymous subject reference (`GET /v1/journeys?subject=`); never the document number.
    var subjectReference: String?
    var startedAt: Date?
    /// The start's deadline, if it set one: the journey is abandoned (`deadlineReached`) then.
    var deadline: Date?
    /// The journey's attempt budget: its start's `maximumAttempts`, else the deployment's.
    var maximumAttempts: Int
    var updatedAt: Date?
    var completedAt: Date?
    var abandonedAt: Date?
    var abandonReason: AbandonReason?
    var outcome: String?
    /// True for a journey completed after it had been abandoned: Unico announced the result late
    /// (`abandonedAt` and `abandonReason` stay, for the record). Absent otherwise.
    var completedAfterAbandonment: Bool?
    var lastErrorCode: ErrorCode?
    var attempts: [Attempt]
    var version: Int

    init(_ state: JourneyState, id: JourneyID) {
        journeyId = id.rawValue
        status = state.status.rawValue
        attempt = state.currentAttemptNumber
        environment = state.environment?.rawValue
        flow = state.flow?.rawValue
        purpose = state.purpose?.rawValue
        clientReference = state.clientReference
        subjectReference = state.subject?.reference.rawValue
        startedAt = state.startedAt
        deadline = state.deadline
        maximumAttempts = state.retryPolicy.maximumAttempts
        updatedAt = state.updatedAt
        completedAt = state.completedAt
        abandonedAt = state.abandonedAt
        abandonReason = state.abandonReason
        outcome = state.outcome?.rawValue
        completedAfterAbandonment = state.status == .completed && state.abandonedAt != nil ? true : nil
        version = state.version
        lastErrorCode = state.lastErrorCode.map { code in
            let entry = SDKErrorCatalog.standard.entry(for: code)
            return ErrorCode(
                code: code.rawValue, meaning: entry.meaning, category: entry.category.rawValue,
                action: entry.recommendedAction, retryable: entry.retryable)
        }
        attempts = state.attempts.map {
            Attempt(
                number: $0.number, trigger: $0.trigger.rawValue, requestedAt: $0.requestedAt,
                processCreatedAt: $0.processCreatedAt, creationFailedAt: $0.creationFailedAt,
                tokenExpiresAt: $0.tokenExpiresAt, firstTokenIssuedAt: $0.firstTokenIssuedAt,
                captureOpenedAt: $0.captureOpenedAt, callbackAt: $0.callbackAt, resultFetchedAt: $0.resultFetchedAt,
                tokenExpiredAt: $0.tokenExpiredAt, failedAt: $0.failedAt, failureReason: $0.failureReason,
                retryAt: $0.retryAt)
        }
    }
}
