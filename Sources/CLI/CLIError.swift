/// An error that chooses its own message and exit code when it ends a command.
///
/// Errors that do not conform exit with code 1 and are described by `String(describing:)`.
public protocol CLIError: Error, CustomStringConvertible {
    /// The process exit code; defaults to 1.
    var exitCode: Int32 { get }
}

extension CLIError {
    public var exitCode: Int32 { 1 }
}
