/// What one run of the tool produced besides the command's own output.
public struct ToolResult: Sendable, Equatable {
    /// The process exit code.
    public var exitCode: Int32
    /// Text for standard output: help that was asked for.
    public var standardOutput: String
    /// Text for standard error: usage errors, failures, help after a missing subcommand.
    public var standardError: String

    public init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}
