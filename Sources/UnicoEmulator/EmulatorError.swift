import ErrorCodes

/// An error from setting up or running the emulator: a stable `code` plus a message without secrets.
public struct EmulatorError: CodedError, Hashable {
    /// A stable, machine-readable code; compare against the static members.
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The fault script could not be read, decoded or validated.
        public static let invalidFaultScript = Code(rawValue: "invalid_fault_script")
        /// A configuration value is out of range or inconsistent.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// A key could not be generated, parsed or written.
        public static let keyMaterial = Code(rawValue: "key_material")
        /// The HTTP server could not start.
        public static let serverFailed = Code(rawValue: "server_failed")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
