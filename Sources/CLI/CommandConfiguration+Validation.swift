extension CommandConfiguration {
    /// Mistakes in this declaration, one sentence each; empty when it is sound.
    ///
    /// Checks names (non-empty, no leading `-`, no `=` or spaces, unique, not `help`),
    /// that required options have no default, that only the last positional repeats and no
    /// required positional follows an optional one, and that groups declare no arguments.
    public var problems: [String] {
        var problems: [String] = []
        let prefix = "'\(name)':"
        if !Self.isValidName(name) { problems.append("\(prefix) the command name is not a valid word") }

        let names = options.map(\.name) + flags.map(\.name) + positionals.map(\.name)
        for argument in names where !Self.isValidName(argument) {
            problems.append("\(prefix) '\(argument)' is not a valid argument name")
        }
        for argument in Set(names) where names.filter({ $0 == argument }).count > 1 {
            problems.append("\(prefix) '\(argument)' is declared more than once")
        }
        if names.contains("help") { problems.append("\(prefix) 'help' is reserved for --help") }
        for option in options where option.isRequired && option.defaultValue != nil {
            problems.append("\(prefix) required option '--\(option.name)' has a default that is never used")
        }
        for positional in positionals.dropLast() where positional.isRepeatable {
            problems.append("\(prefix) repeatable argument '<\(positional.name)>' is not the last")
        }
        if let firstOptional = positionals.firstIndex(where: { !$0.isRequired }),
            let late = positionals[firstOptional...].first(where: \.isRequired)
        {
            problems.append("\(prefix) required argument '<\(late.name)>' follows an optional one")
        }
        if isGroup, !names.isEmpty {
            problems.append("\(prefix) a group takes no options, flags or arguments")
        }
        let commandNames = subcommands.map { $0.configuration.name }
        for command in Set(commandNames) where commandNames.filter({ $0 == command }).count > 1 {
            problems.append("\(prefix) subcommand '\(command)' is declared more than once")
        }
        return problems.sorted()
    }

    /// Problems in the declarations of `root` and every command below it.
    public static func problems(inTree root: any Command.Type) -> [String] {
        let configuration = root.configuration
        return configuration.problems + configuration.subcommands.flatMap { problems(inTree: $0) }
    }

    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("-") && !name.contains { $0 == "=" || $0.isWhitespace }
    }
}
