import ErrorCodes

/// An access-control failure: a stable `code`, the HTTP status to answer with, and a message
/// safe to show to the caller (it never contains a key, a token or why a key was refused).
public struct AccessError: CodedError, Hashable {
    /// A stable, machine-readable error code; compare against the static members.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No credentials, or an API key that is malformed, unknown or revoked (401).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// Authenticated, but the key lacks the scope the operation needs (403).
        public static let forbidden = Code(rawValue: "forbidden")
        /// A client token that is malformed, badly signed or meant for another audience (401).
        public static let invalidToken = Code(rawValue: "invalid_token")
        /// A client token past its expiry (401).
        public static let tokenExpired = Code(rawValue: "token_expired")
        /// A valid client token used for a journey other than its own (403).
        public static let wrongJourney = Code(rawValue: "wrong_journey")
        /// A bad name, scope or key reference given to key management (400).
        public static let invalidArgument = Code(rawValue: "invalid_argument")
        /// No key has the given id or prefix (404).
        public static let keyNotFound = Code(rawValue: "key_not_found")
        /// No tenant has the given name (404).
        public static let tenantNotFound = Code(rawValue: "tenant_not_found")
        /// A tenant of that name exists already (409).
        public static let tenantExists = Code(rawValue: "tenant_exists")
        /// A signing key or setting is missing or unusable (500).
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")

        /// The HTTP status a service should answer with.
        public var httpStatus: Int {
            switch self {
            case .unauthorized, .invalidToken, .tokenExpired: 401
            case .forbidden, .wrongJourney: 403
            case .invalidArgument: 400
            case .keyNotFound, .tenantNotFound: 404
            case .tenantExists: 409
            default: 500
            }
        }
    }

    public let code: Code
    /// What went wrong, fit for a problem response.
    public let message: String
    /// For `forbidden`: the scope that was missing.
    public let missingScope: Scope?

    public init(_ code: Code, _ message: String, missingScope: Scope? = nil) {
        self.code = code
        self.message = message
        self.missingScope = missingScope
    }

    /// The HTTP status a service should answer with.
    public var httpStatus: Int { code.httpStatus }

    /// The `WWW-Authenticate` value for a 401 or a missing scope (RFC 6750 §3), else nil.
    public var wwwAuthenticate: String? {
        switch code {
        case .unauthorized where self == .missingCredentials: #"Bearer realm="journeys""#
        case .unauthorized, .invalidToken, .tokenExpired: #"Bearer realm="journeys", error="invalid_token""#
        case .forbidden: missingScope.map { #"Bearer realm="journeys", error="insufficient_scope", scope="\#($0.rawValue)""# }
        default: nil
        }
    }
}

extension AccessError {
    /// No `Authorization` (or `X-API-Key`) header was sent.
    public static let missingCredentials = AccessError(
        .unauthorized, "an API key is required: send 'Authorization: Bearer jk_...'")

    /// The one answer for a malformed, unknown or revoked key, so callers cannot tell them apart.
    public static let invalidCredentials = AccessError(.unauthorized, "the API key is not valid")

    /// The key lacks `scope`.
    public static func forbidden(missing scope: Scope) -> AccessError {
        AccessError(.forbidden, "this API key lacks the scope '\(scope.rawValue)'", missingScope: scope)
    }
}
