/// Turns command-line words into a ``ParseResult`` against a tree of commands.
///
/// Parsing is pure: nothing is printed or run. `--help` or `-h` anywhere before `--` asks
/// for help on the deepest command named, and `<root> help <command>...` does the same.
public enum CommandParser {
    /// Words that ask for help.
    static let helpFlags: Set<String> = ["--help", "-h"]

    /// Decides what `arguments` (without the executable name) ask for.
    public static func parse(_ arguments: [String], root: any Command.Type) -> ParseResult {
        if arguments.first == "help", root.configuration.isGroup,
            root.configuration.subcommand(named: "help") == nil
        {
            return helpCommand(Array(arguments.dropFirst()), root: root)
        }
        let terminator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let helpRequested = arguments[..<terminator].contains { helpFlags.contains($0) }
        var words = arguments.enumerated()
            .filter { $0.offset >= terminator || !helpFlags.contains($0.element) }
            .map(\.element)[...]

        var path = CommandPath(root: root)
        while path.configuration.isGroup, let word = words.first, word != "--" {
            let next: any Command.Type
            do {
                next = try subcommand(word, of: path)
            } catch {
                return helpRequested ? .help(path) : .usageError(error)
            }
            path = path.appending(next)
            words = words.dropFirst()
        }
        if helpRequested { return .help(path) }
        if path.configuration.isGroup { return .missingSubcommand(path) }
        do {
            let parsed = try parseArguments(Array(words), for: path.configuration, commandPath: path.names)
            return .run(path, parsed)
        } catch {
            return .usageError(error)
        }
    }

    /// Parses the arguments of one leaf command, e.g. to test a command's initializer.
    public static func parseArguments(
        _ arguments: [String], for command: any Command.Type, commandPath: [String]? = nil
    ) throws(UsageError) -> ParsedArguments {
        let configuration = command.configuration
        return try parseArguments(
            arguments, for: configuration, commandPath: commandPath ?? [configuration.name])
    }

    private static func helpCommand(_ words: [String], root: any Command.Type) -> ParseResult {
        var path = CommandPath(root: root)
        for word in words where !helpFlags.contains(word) {
            guard path.configuration.isGroup else {
                return .usageError(
                    UsageError(
                        code: .unexpectedArgument,
                        message: "'\(path.invocation)' has no subcommands, so '\(word)' names nothing",
                        commandPath: path.names))
            }
            do {
                path = path.appending(try subcommand(word, of: path))
            } catch {
                return .usageError(error)
            }
        }
        return .help(path)
    }

    private static func subcommand(_ word: String, of path: CommandPath) throws(UsageError) -> any Command.Type {
        let configuration = path.configuration
        if word.hasPrefix("-") {
            throw unknownOption(word, candidates: [], commandPath: path.names)
        }
        if let command = configuration.subcommand(named: word) { return command }
        var names = configuration.subcommands.map { $0.configuration.name }
        if path.commands.count == 1 { names.append("help") }
        var message = "unknown command '\(word)' for '\(path.invocation)'"
        if let suggestion = Suggestion.closest(to: word, among: names) {
            message += "; did you mean '\(suggestion)'?"
        }
        throw UsageError(code: .unknownCommand, message: message, commandPath: path.names)
    }

    static func unknownOption(_ word: String, candidates: [String], commandPath: [String]) -> UsageError {
        var message = "unknown option '\(word)'"
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        if name.hasPrefix("--"),
            let suggestion = Suggestion.closest(to: String(name.dropFirst(2)), among: candidates + ["help"])
        {
            message += "; did you mean '--\(suggestion)'?"
        }
        return UsageError(code: .unknownOption, message: message, commandPath: commandPath)
    }
}
