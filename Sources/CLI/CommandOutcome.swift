import Foundation

/// How one run of the tool ended, and the exit code and message that report it.
public enum CommandOutcome: Sendable {
    /// The command finished.
    case success
    /// Help was asked for and printed.
    case helpShown
    /// The command line was wrong, or a group was named without a subcommand.
    case usageError(UsageError)
    /// The command threw.
    case failure(any Error)
    /// The command was cancelled, e.g. by Ctrl-C.
    case cancelled

    /// Exit code 0: success or help.
    public static let successCode: Int32 = 0
    /// Exit code 1: a runtime error without its own code.
    public static let failureCode: Int32 = 1
    /// Exit code 64 (`EX_USAGE`): the command line was wrong.
    public static let usageCode: Int32 = 64
    /// Exit code 130: cancelled, as a shell reports SIGINT.
    public static let cancelledCode: Int32 = 130

    /// Classifies an error thrown while initializing or running a command.
    public init(error: any Error) {
        switch error {
        case let usage as UsageError: self = .usageError(usage)
        case is CancellationError: self = .cancelled
        default: self = .failure(error)
        }
    }

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .success, .helpShown: Self.successCode
        case .usageError: Self.usageCode
        case .cancelled: Self.cancelledCode
        case .failure(let error): (error as? any CLIError)?.exitCode ?? Self.failureCode
        }
    }

    /// What to print on standard error, e.g. `journeys: error: ...`; `nil` for nothing.
    ///
    /// A usage error adds a `Run '<command> --help'` hint, except for a missing subcommand,
    /// whose help the tool has just printed.
    public func diagnostic(toolName: String) -> String? {
        switch self {
        case .success, .helpShown:
            return nil
        case .usageError(let error) where error.code == .missingSubcommand:
            return "\(toolName): error: \(error.message)\n"
        case .usageError(let error):
            let command = error.commandPath.isEmpty ? toolName : error.commandPath.joined(separator: " ")
            return "\(toolName): error: \(error.message)\nRun '\(command) --help' for usage.\n"
        case .cancelled:
            return "\(toolName): cancelled\n"
        case .failure(let error):
            let message = Self.describe(error)
            return message.isEmpty ? nil : "\(toolName): error: \(message)\n"
        }
    }

    /// A one-line description of an error: its `description`, its localized description,
    /// or the error value itself.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as any CustomStringConvertible: error.description
        case let error as any LocalizedError: error.errorDescription ?? String(describing: error)
        default: String(describing: error)
        }
    }
}
