/// A ready-made ``CLIError`` for commands: a message and an exit code.
///
/// An empty message prints nothing, for a command that already reported on its own output,
/// e.g. `throw CommandFailure.exit(2)` after `audit verify` printed the broken streams.
public struct CommandFailure: CLIError, Sendable, Equatable {
    /// Shown as `<tool>: error: <message>`; empty for no message.
    public var message: String
    public var exitCode: Int32

    public init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Ends the command with this exit code and no message.
    public static func exit(_ code: Int32) -> CommandFailure {
        CommandFailure("", exitCode: code)
    }

    public var description: String { message }
}
