/// What a command line asks the tool to do, decided without running anything.
public enum ParseResult: Sendable {
    /// Run the command at the end of `path` with these arguments.
    case run(CommandPath, ParsedArguments)
    /// Print help for the command at the end of `path` and exit 0.
    case help(CommandPath)
    /// A group was named without a subcommand: print its help and exit with the usage code.
    case missingSubcommand(CommandPath)
    /// The command line is wrong: report the error and exit with the usage code.
    case usageError(UsageError)
}
