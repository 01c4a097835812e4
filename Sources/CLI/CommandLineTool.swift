import Foundation

/// Runs a tree of commands: parse, initialize, run, and report as an exit code.
///
/// `main` is the thin process shell; `execute` does everything else and returns the text
/// and exit code instead of printing, so tests run a whole tool in-process.
public enum CommandLineTool {
    /// Runs the tool for `arguments` (including the executable name) and exits the process.
    ///
    /// SIGINT and SIGTERM cancel the running command; a second signal exits at once with 130.
    public static func main(root: any Command.Type, arguments: [String]) async -> Never {
        let task = Task { await execute(root: root, arguments: Array(arguments.dropFirst())) }
        let signalSources = [SIGINT, SIGTERM].map { cancelOnSignal($0, task: task) }
        let result = await task.value
        signalSources.forEach { $0.cancel() }
        StandardStream.output.write(result.standardOutput)
        StandardStream.error.write(result.standardError)
        exit(result.exitCode)
    }

    /// Parses `arguments` (without the executable name), runs the command they name, and
    /// returns the help or diagnostics to print and the exit code.
    public static func execute(root: any Command.Type, arguments: [String]) async -> ToolResult {
        let toolName = root.configuration.name
        var standardError = ""
        let outcome: CommandOutcome
        switch CommandParser.parse(arguments, root: root) {
        case .help(let path):
            return ToolResult(exitCode: CommandOutcome.successCode, standardOutput: HelpFormatter.help(for: path))
        case .missingSubcommand(let path):
            standardError = HelpFormatter.help(for: path) + "\n"
            outcome = .usageError(
                UsageError(
                    code: .missingSubcommand, message: "'\(path.invocation)' needs a subcommand",
                    commandPath: path.names))
        case .usageError(let error):
            outcome = .usageError(error)
        case .run(let path, let arguments):
            outcome = await run(path.command, arguments: arguments)
        }
        standardError += outcome.diagnostic(toolName: toolName) ?? ""
        return ToolResult(exitCode: outcome.exitCode, standardError: standardError)
    }

    /// Initializes and runs one command, turning what it throws into an outcome.
    ///
    /// Any error thrown once the task is cancelled counts as cancellation; a command that
    /// returns normally succeeds, even after cancellation (a graceful shutdown).
    public static func run(_ command: any Command.Type, arguments: ParsedArguments) async -> CommandOutcome {
        do {
            let instance = try command.init(arguments: arguments)
            try await instance.run()
            return .success
        } catch {
            return Task.isCancelled ? .cancelled : CommandOutcome(error: error)
        }
    }

    private static func cancelOnSignal(_ signalNumber: Int32, task: Task<ToolResult, Never>) -> any DispatchSourceSignal {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler {
            if task.isCancelled { exit(CommandOutcome.cancelledCode) }
            task.cancel()
        }
        source.resume()
        return source
    }
}
