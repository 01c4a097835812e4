/// Why a ``ServiceGroup`` could not run or shut down cleanly.
public struct ServiceGroupError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public var description: String { rawValue }
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

    public var description: String {
        switch code {
        case .gracefulShutdownTimedOut: "services did not stop in time: \(services.joined(separator: ", "))"
        case .alreadyRunning: "the service group is already running"
        default: code.rawValue
        }
    }
}
