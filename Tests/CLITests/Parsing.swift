@testable import CLI

/// Parses `words` against the sample tool and returns the leaf's arguments, or throws the usage error.
func parsed(_ words: [String]) throws -> (path: CommandPath, arguments: ParsedArguments) {
    switch CommandParser.parse(words, root: SampleTool.self) {
    case .run(let path, let arguments): return (path, arguments)
    case .usageError(let error): throw error
    case .help(let path): throw Unexpected(description: "help for \(path.invocation)")
    case .missingSubcommand(let path): throw Unexpected(description: "missing subcommand of \(path.invocation)")
    }
}

/// The usage error that parsing `words` reports, or `nil` if parsing succeeds.
func usageError(_ words: [String]) -> UsageError? {
    if case .usageError(let error) = CommandParser.parse(words, root: SampleTool.self) { return error }
    return nil
}

/// The usage error that reading a value reports while initializing command `C` from `words`.
func initError<C: Command>(_ type: C.Type, _ words: [String]) -> UsageError? {
    do {
        let arguments = try CommandParser.parseArguments(words, for: type)
        _ = try C(arguments: arguments)
        return nil
    } catch {
        return error as? UsageError
    }
}

struct Unexpected: Error, CustomStringConvertible {
    var description: String
}
