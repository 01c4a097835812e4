import CLI
import ErrorCodes

/// A command failure with a stable code and a message fit for the terminal.
public struct AppError: CodedError, CLIError {
    public struct Code: ErrorCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let schemaOutdated = Code(rawValue: "schema_outdated")
        public static let invalidInput = Code(rawValue: "invalid_input")
        public static let notFound = Code(rawValue: "not_found")
        public static let chainBroken = Code(rawValue: "chain_broken")
        /// Work that ran but left part undone (exit 1).
        public static let incomplete = Code(rawValue: "incomplete")
    }

    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    /// The message alone: the command line shows it after `error:`.
    public var description: String { message }

    /// 3 for a broken hash chain (so scripts can tell tampering from other failures),
    /// 64 for invalid input, 1 otherwise.
    public var exitCode: Int32 {
        switch code {
        case .chainBroken: return 3
        case .invalidInput: return 64
        default: return 1
        }
    }
}
