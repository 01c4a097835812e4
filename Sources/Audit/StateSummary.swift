import Foundation
import JourneyDomain

/// A journey state as audit output shows it: status, step times and codes. Sealed fields
/// (subject, tokens, link, Human Token) are left out; the subject appears only as its
/// pseudonymous reference.
public struct StateSummary: Sendable, Equatable, Encodable {
    public struct Attempt: Sendable, Equatable, Encodable {
        public var number: Int
        public var trigger: String
        public var processId: String?
        public var requestedAt: Date
        public var processCreatedAt: Date?
        public var tokenExpiresAt: Date?
        public var firstTokenIssuedAt: Date?
        public var captureOpenedAt: Date?
        public var callbackAt: Date?
        public var resultFetchedAt: Date?
        public var processResult: String?
        public var failedAt: Date?
        public var failure: String?
        public var sdkErrorCode: Int?
        public var retryAt: Date?
    }

    public var status: String
    public var version: Int
    public var attempt: Int
    public var environment: String?
    public var flow: String?
    public var purpose: String?
    public var clientReference: String?
    public var subjectReference: String?
    public var startedAt: Date?
    /// The start's deadline, when it set one.
    public var deadline: Date?
    public var updatedAt: Date?
    public var completedAt: Date?
    public var abandonedAt: Date?
    public var abandonReason: String?
    /// When the subject was erased (its sealed fields no longer open); nil otherwise.
    public var subjectErasedAt: Date?
    public var outcome: String?
    public var lastErrorCode: Int?
    public var nextDue: String?
    public var nextDueAt: Date?
    public var attempts: [Attempt]

    public init(_ state: JourneyState) {
        status = state.status.rawValue
        version = state.version
        attempt = state.currentAttemptNumber
        environment = state.environment?.rawValue
        flow = state.flow?.rawValue
        purpose = state.purpose?.rawValue
        clientReference = state.clientReference
        subjectReference = state.subject?.reference.rawValue
        startedAt = state.startedAt
        deadline = state.deadline
        updatedAt = state.updatedAt
        completedAt = state.completedAt
        abandonedAt = state.abandonedAt
        abandonReason = state.abandonReason?.kind.rawValue
        subjectErasedAt = state.subjectErasedAt
        outcome = state.outcome?.rawValue
        lastErrorCode = state.lastErrorCode?.rawValue
        nextDue = state.nextDue?.kind.rawValue
        nextDueAt = state.nextDue?.at
        attempts = state.attempts.map {
            Attempt(
                number: $0.number, trigger: $0.trigger.rawValue, processId: $0.processID?.rawValue,
                requestedAt: $0.requestedAt, processCreatedAt: $0.processCreatedAt, tokenExpiresAt: $0.tokenExpiresAt,
                firstTokenIssuedAt: $0.firstTokenIssuedAt, captureOpenedAt: $0.captureOpenedAt,
                callbackAt: $0.callbackAt, resultFetchedAt: $0.resultFetchedAt,
                processResult: $0.processResult?.rawValue, failedAt: $0.failedAt,
                failure: $0.failureReason?.kind.rawValue ?? $0.creationFailure.map { _ in "processCreationFailed" },
                sdkErrorCode: $0.failureReason?.sdkCode?.rawValue, retryAt: $0.retryAt)
        }
    }
}
