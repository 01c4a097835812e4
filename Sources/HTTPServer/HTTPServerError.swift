import ErrorCodes

/// Why an `HTTPServer` could not start.
public struct HTTPServerError: CodedError, Equatable {
    /// A stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A configuration value is out of range.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// libmicrohttpd refused to start, e.g. the port is taken or the host is not numeric.
        public static let startFailed = Code(rawValue: "start_failed")
        /// `start()` was called on a server that already started.
        public static let alreadyStarted = Code(rawValue: "already_started")
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `HTTPServerError(code): message`.
    public var description: String { "HTTPServerError(\(code.rawValue)): \(message)" }
}
