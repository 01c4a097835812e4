import ErrorCodes

/// A worker failure with a stable ``code``; messages carry no personal data.
public struct WorkerError: CodedError, Hashable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A setting (environment variable or option) is unusable; the message names it.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The `work_leases` table holds a row this version cannot read.
        public static let unreadableItem = Code(rawValue: "unreadable_item")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
