import ErrorCodes
import Foundation

/// A failure talking to Unico: a stable ``code`` plus the context a caller can act on.
///
/// ``message`` and ``description`` never contain access tokens, assertions, keys, or
/// personal data; Unico's own error text is not echoed, only the codes parsed from it.
public struct HumanTokenAPIError: CodedError, Hashable {
    /// A stable, machine-readable error code; compare against the static members.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Unico refused a request field (HTTP 400); ``HumanTokenAPIError/field`` names it when known.
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// The assertion or access token was refused (HTTP 401/403, or a token-endpoint error).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The process does not exist in this environment (HTTP 404).
        public static let notFound = Code(rawValue: "not_found")
        /// Too many requests (HTTP 429); ``HumanTokenAPIError/retryAfter`` says how long to wait.
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// Unico failed (HTTP 5xx); ``HumanTokenAPIError/status`` holds the status.
        public static let serverError = Code(rawValue: "server_error")
        /// No answer within the configured request timeout.
        public static let timeout = Code(rawValue: "timeout")
        /// The connection failed (DNS, refused, reset, TLS).
        public static let transport = Code(rawValue: "transport")
        /// Unico answered with something this client cannot read.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// The client's configuration is unusable; ``HumanTokenAPIError/field`` names the setting.
        public static let configuration = Code(rawValue: "configuration")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What failed, for logs; contains no secrets and no personal data.
    public var message: String
    /// The request field (for `invalid_argument`) or setting (for `configuration`) at fault.
    public var field: String?
    /// The HTTP status Unico answered with, if it answered.
    public var status: Int?
    /// Unico's own error code: `1.2.5`-style for the token endpoint, gRPC-style (`3`) for the API.
    public var unicoCode: String?
    /// Seconds to wait before retrying, from a 429's `Retry-After` header.
    public var retryAfter: Int?

    public init(
        _ code: Code, _ message: String, field: String? = nil, status: Int? = nil,
        unicoCode: String? = nil, retryAfter: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.status = status
        self.unicoCode = unicoCode
        self.retryAfter = retryAfter
    }

    public var description: String {
        var parts = ["\(code.rawValue): \(message)"]
        if let field { parts.append("field=\(field)") }
        if let status { parts.append("status=\(status)") }
        if let unicoCode { parts.append("unico_code=\(unicoCode)") }
        if let retryAfter { parts.append("retry_after=\(retryAfter)s") }
        return parts.joined(separator: " ")
    }
}

extension HumanTokenAPIError {
    static func configuration(_ setting: String, _ problem: String) -> HumanTokenAPIError {
        HumanTokenAPIError(.configuration, "\(setting) \(problem)", field: setting)
    }
}
