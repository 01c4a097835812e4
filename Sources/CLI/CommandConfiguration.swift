/// The static description of a command: its name, help text, arguments and subcommands.
public struct CommandConfiguration: Sendable {
    /// The word that names the command on the command line, e.g. `append`.
    public var name: String
    /// One line shown in the parent's command list and at the top of the help.
    public var summary: String
    /// Free text shown after the summary in the help; empty for none.
    public var discussion: String
    /// Options that take a value, e.g. `--stream S`.
    public var options: [OptionSpec]
    /// Boolean flags, e.g. `--json`.
    public var flags: [FlagSpec]
    /// Positional arguments, in order.
    public var positionals: [PositionalSpec]
    /// Subcommands; a command with subcommands is a group and takes no other arguments.
    public var subcommands: [any Command.Type]

    public init(
        name: String,
        summary: String,
        discussion: String = "",
        options: [OptionSpec] = [],
        flags: [FlagSpec] = [],
        positionals: [PositionalSpec] = [],
        subcommands: [any Command.Type] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.flags = flags
        self.positionals = positionals
        self.subcommands = subcommands
    }

    /// Whether this command only dispatches to subcommands.
    public var isGroup: Bool { !subcommands.isEmpty }

    /// The declared option with this name, if any.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The declared flag with this name, if any.
    public func flag(named name: String) -> FlagSpec? {
        flags.first { $0.name == name }
    }

    /// The declared positional with this name, if any.
    public func positional(named name: String) -> PositionalSpec? {
        positionals.first { $0.name == name }
    }

    /// The subcommand with this name, if any.
    public func subcommand(named name: String) -> (any Command.Type)? {
        subcommands.first { $0.configuration.name == name }
    }
}
