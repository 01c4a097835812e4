import ErrorCodes

/// An error from the PostgreSQL layer, with a stable `code` and the server's SQLSTATE when there is one.
///
/// Messages never contain bind values or passwords: only the server's message and the statement's
/// first words.
public struct PostgresError: CodedError {
    /// Stable machine-readable error codes.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let invalidConfiguration = Code("invalid_configuration")
        public static let connectionFailed = Code("connection_failed")
        public static let authenticationFailed = Code("authentication_failed")
        public static let connectionClosed = Code("connection_closed")
        public static let queryFailed = Code("query_failed")
        public static let uniqueViolation = Code("unique_violation")
        public static let foreignKeyViolation = Code("foreign_key_violation")
        public static let checkViolation = Code("check_violation")
        public static let notNullViolation = Code("not_null_violation")
        public static let serializationFailure = Code("serialization_failure")
        public static let deadlockDetected = Code("deadlock_detected")
        public static let insufficientPrivilege = Code("insufficient_privilege")
        public static let undefinedTable = Code("undefined_table")
        public static let syntaxError = Code("syntax_error")
        public static let invalidInput = Code("invalid_input")
        public static let raisedException = Code("raised_exception")
        public static let queryCanceled = Code("query_canceled")
        public static let adminShutdown = Code("admin_shutdown")
        public static let decodingFailed = Code("decoding_failed")
        public static let poolClosed = Code("pool_closed")
        public static let poolTimeout = Code("pool_timeout")
    }

    public let code: Code
    public let message: String
    /// The five-character SQLSTATE, when the server sent one.
    public let sqlState: String?
    /// The server's DETAIL field, when it sent one.
    public let detail: String?
    /// The constraint name for integrity violations.
    public let constraint: String?

    public init(_ code: Code, _ message: String, sqlState: String? = nil, detail: String? = nil, constraint: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.constraint = constraint
    }

    /// `code: message`, then the SQLSTATE when there is one.
    public var description: String {
        var text = "\(code): \(message)"
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        return text
    }

    /// True when the connection is unusable and the operation may succeed on a new one.
    public var isConnectionError: Bool {
        code == .connectionClosed || code == .connectionFailed || code == .adminShutdown
    }

    /// True when PostgreSQL cannot be reached or used right now (connection refused or lost, the
    /// server shutting down or starting, no pooled connection in time): an outage to answer with
    /// "retry shortly", not a bug.
    public var isUnavailable: Bool {
        isConnectionError || code == .poolTimeout || code == .poolClosed
    }

    /// Maps a SQLSTATE to a stable code.
    static func code(forSQLState state: String) -> Code {
        switch state {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case "23514": return .checkViolation
        case "23502": return .notNullViolation
        case "40001": return .serializationFailure
        case "40P01": return .deadlockDetected
        case "42501": return .insufficientPrivilege
        case "42P01": return .undefinedTable
        case "42601": return .syntaxError
        case "28P01", "28000": return .authenticationFailed
        case "P0001": return .raisedException
        case "57014": return .queryCanceled
        case "57P01", "57P02", "57P03": return .adminShutdown
        default:
            if state.hasPrefix("22") { return .invalidInput }
            if state.hasPrefix("08") { return .connectionClosed }
            return .queryFailed
        }
    }
}
