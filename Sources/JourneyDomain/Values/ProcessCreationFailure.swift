import Foundation

/// Why Create Process failed at Unico, as the HTTP client saw it. Carries no personal data.
public struct ProcessCreationFailure: Hashable, Sendable, Codable {
    /// HTTP status, or nil when no answer came (timeout, connection refused).
    public var httpStatus: Int?
    /// Unico's error code from the body (`error.code`), when there was one.
    public var errorCode: Int?
    /// Short description for operators; must not contain personal data.
    public var message: String
    /// Whether asking again, with a fresh attempt, can succeed.
    public var retryable: Bool
    /// Seconds from a `Retry-After` header; a retry is never scheduled earlier.
    public var retryAfter: TimeInterval?

    /// Creates a failure; `retryable` defaults from the status: no answer, 408, 429 and 5xx are retryable.
    public init(
        httpStatus: Int?,
        errorCode: Int? = nil,
        message: String,
        retryable: Bool? = nil,
        retryAfter: TimeInterval? = nil
    ) {
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.message = message
        self.retryable = retryable ?? Self.isRetryable(httpStatus: httpStatus)
        self.retryAfter = retryAfter
    }

    /// True for no answer, 408, 429 and 5xx; false for other statuses (bad request, credentials).
    public static func isRetryable(httpStatus: Int?) -> Bool {
        guard let httpStatus else { return true }
        return httpStatus == 408 || httpStatus == 429 || (500...599).contains(httpStatus)
    }
}
