import ErrorCodes
import Foundation

/// A command the journey refuses, with a stable code and a message naming the state.
public struct DomainError: CodedError, Hashable {
    /// Stable machine-readable code; safe to show to API callers.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The command is not allowed in the journey's current status (409).
        public static let invalidTransition = Code(rawValue: "invalid_transition")
        /// `start` on a journey that already has events (409).
        public static let alreadyStarted = Code(rawValue: "already_started")
        /// A new attempt is needed but the retry policy allows no more (409).
        public static let attemptsExhausted = Code(rawValue: "attempts_exhausted")
        /// A token was asked for while Create Process is still in flight (409).
        public static let processCreationPending = Code(rawValue: "process_creation_pending")
        /// `expireToken` before the token's lifetime ended (409).
        public static let tokenNotExpired = Code(rawValue: "token_not_expired")
        /// A token, link or attempt was asked for at or after the journey's deadline (409).
        public static let deadlineReached = Code(rawValue: "deadline_reached")
        /// `retry` before the scheduled time (409).
        public static let retryNotDue = Code(rawValue: "retry_not_due")
        /// A worker command names an attempt that is no longer the current one (409).
        public static let staleAttempt = Code(rawValue: "stale_attempt")
        /// The command names an attempt the journey does not have (422).
        public static let unknownAttempt = Code(rawValue: "unknown_attempt")
        /// No attempt of the journey has this Unico process (404).
        public static let unknownProcess = Code(rawValue: "unknown_process")
        /// A success callback's process id is not the attempt's process (422).
        public static let processMismatch = Code(rawValue: "process_mismatch")
        /// Get Process returned a result the journey cannot accept (422).
        public static let invalidResult = Code(rawValue: "invalid_result")

        /// The HTTP status an API should answer with.
        public var suggestedHTTPStatus: Int {
            switch self {
            case .unknownProcess: 404
            case .unknownAttempt, .processMismatch, .invalidResult: 422
            default: 409
            }
        }
    }

    public var code: Code
    /// One sentence for people, naming the journey's status.
    public var message: String
    /// The journey's status when the command was refused.
    public var status: JourneyStatus
    /// The attempt the command named, when it named one.
    public var attempt: Int?
    /// Seconds after which the same command may succeed (`retry_not_due`), when known.
    public var retryAfter: TimeInterval?
    /// Why an abandoned journey was abandoned (e.g. `cancelled`), when the status is `abandoned`.
    public var abandonReason: AbandonReason.Kind?

    public init(
        code: Code, message: String, status: JourneyStatus, attempt: Int? = nil, retryAfter: TimeInterval? = nil,
        abandonReason: AbandonReason.Kind? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.attempt = attempt
        self.retryAfter = retryAfter
        self.abandonReason = abandonReason
    }
}
