/// Renders the help text of a command as a string.
///
/// The text has a summary, a usage line, the discussion, then `Arguments:`, `Options:` and
/// `Commands:` sections with aligned help columns; an entry whose left column is too wide
/// puts its help on the next line.
public enum HelpFormatter {
    /// The widest left column that still shares its line with the help text.
    static let maximumLabelWidth = 28

    /// The full help for the deepest command of `path`.
    public static func help(for path: CommandPath) -> String {
        let configuration = path.configuration
        var sections: [String] = []
        if !configuration.summary.isEmpty { sections.append(configuration.summary) }
        sections.append("Usage: " + usage(for: path))
        if !configuration.discussion.isEmpty { sections.append(configuration.discussion) }

        if !configuration.positionals.isEmpty {
            let rows = configuration.positionals.map { positional in
                (positional.usage, annotated(positional.help, positional.isRequired ? [] : ["optional"]))
            }
            sections.append(section("Arguments:", rows))
        }

        var optionRows = configuration.options.map { option in
            var notes: [String] = []
            if option.isRequired { notes.append("required") }
            if let value = option.defaultValue { notes.append("default: \(value)") }
            if option.isRepeatable { notes.append("repeatable") }
            return ("--\(option.name) <\(option.valueName)>", annotated(option.help, notes))
        }
        optionRows += configuration.flags.map { ("--\($0.name)", $0.help) }
        optionRows.append(("-h, --help", "Show help for this command."))
        sections.append(section("Options:", optionRows))

        if configuration.isGroup {
            var commandRows = configuration.subcommands.map {
                ($0.configuration.name, $0.configuration.summary)
            }
            if path.commands.count == 1, configuration.subcommand(named: "help") == nil {
                commandRows.append(("help", "Show help for a command."))
            }
            sections.append(section("Commands:", commandRows))
            sections.append("Run '\(path.invocation) <command> --help' for help on a command.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage line without the `Usage: ` prefix, e.g. `journeys report <name> --from <DATE> [<options>]`.
    public static func usage(for path: CommandPath) -> String {
        let configuration = path.configuration
        var words = [path.invocation]
        if configuration.isGroup {
            words.append("<command>")
            return words.joined(separator: " ")
        }
        words += configuration.options.filter(\.isRequired).map { "--\($0.name) <\($0.valueName)>" }
        let hasOptional = configuration.options.contains { !$0.isRequired } || !configuration.flags.isEmpty
        if hasOptional { words.append("[<options>]") }
        words += configuration.positionals.map(\.usage)
        return words.joined(separator: " ")
    }

    private static func annotated(_ help: String, _ notes: [String]) -> String {
        guard !notes.isEmpty else { return help }
        let suffix = "(" + notes.joined(separator: ", ") + ")"
        return help.isEmpty ? suffix : help + " " + suffix
    }

    private static func section(_ title: String, _ rows: [(label: String, help: String)]) -> String {
        let fitting = rows.map(\.label.count).filter { $0 <= maximumLabelWidth }
        let width = fitting.max() ?? maximumLabelWidth
        let indent = String(repeating: " ", count: 2 + width + 2)
        var lines = [title]
        for row in rows {
            let label = "  " + row.label
            if row.help.isEmpty {
                lines.append(label)
            } else if row.label.count <= width {
                lines.append(label.paddedRight(to: 2 + width + 2) + row.help)
            } else {
                lines.append(label)
                lines.append(indent + row.help)
            }
        }
        return lines.joined(separator: "\n")
    }
}
