import ErrorCodes

/// Why a ``ServiceGroup`` could not run or shut down cleanly.
public struct ServiceGroupError: CodedError, Equatable {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `run()` was called a second time.
        public static let alreadyRunning = Code(rawValue: "already_running")
        /// Services did not stop within their graceful shutdown timeout (named in `services`).
        public static let gracefulShutdownTimedOut = Code(rawValue: "graceful_shutdown_timed_out")
    }

    public let code: Code
    /// The services concerned, by name.
    public let services: [String]

    public init(_ code: Code, services: [String] = []) {
        self.code = code
        self.services = services
    }

    public var message: String {
        switch code {
        case .gracefulShutdownTimedOut: "services did not stop in time: \(services.joined(separator: ", "))"
        case .alreadyRunning: "the service group is already running"
        default: code.rawValue
        }
    }

    /// The message alone.
    public var description: String { message }
}
