import ErrorCodes

/// A retention setting or run that cannot be used, with a stable ``code``.
///
/// Messages name the environment variable or setting at fault; never personal data.
public struct RetentionError: CodedError, Hashable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A `JOURNEYS_RETENTION_*` variable or a configuration value is out of range or unreadable.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
    }

    public let code: Code
    public let message: String
    /// The environment variable or setting at fault, when there is one.
    public let field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }
}
