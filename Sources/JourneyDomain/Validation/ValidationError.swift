import ErrorCodes

/// Start input was refused; lists every invalid field.
public struct ValidationError: CodedError, Hashable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// One field or more is invalid (422); ``ValidationError/issues`` names them.
        public static let validationFailed = Code(rawValue: "validation_failed")
    }

    /// Stable code for the whole error, as text.
    public static let code = Code.validationFailed.rawValue

    /// Always ``Code/validationFailed``.
    public var code: Code { .validationFailed }

    public var issues: [FieldIssue]

    public init(issues: [FieldIssue]) {
        self.issues = issues
    }

    /// The fields named by the issues, in order.
    public var fields: [String] { issues.map(\.field) }

    /// The issues' messages joined by "; ".
    public var message: String { issues.map(\.message).joined(separator: "; ") }
}
