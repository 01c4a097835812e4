/// A command of a command-line tool: static metadata plus, for leaves, a way to run.
///
/// A leaf command is a value initialized from its parsed arguments; `init(arguments:)` reads
/// and validates every value it needs, so `run()` starts with typed, checked state. A command
/// with subcommands is a group; conform groups to ``CommandGroup`` instead, which supplies
/// the initializer and `run()`.
public protocol Command: Sendable {
    /// The name, help text and declared arguments of this command.
    static var configuration: CommandConfiguration { get }

    /// Reads typed values from parsed arguments; throws a ``UsageError`` for invalid values.
    init(arguments: ParsedArguments) throws

    /// Does the command's work; throwing maps to an exit code (see ``CommandOutcome``).
    func run() async throws
}

/// A command that only groups subcommands, such as `journeys events`.
///
/// Named without a subcommand, a group prints its help to standard error and exits with
/// the usage error code; its `init(arguments:)` and `run()` are never called by the tool.
public protocol CommandGroup: Command {
    init()
}

extension CommandGroup {
    public init(arguments: ParsedArguments) { self.init() }

    public func run() async throws {
        throw UsageError(
            code: .missingSubcommand,
            message: "'\(Self.configuration.name)' needs a subcommand",
            commandPath: [Self.configuration.name])
    }
}
