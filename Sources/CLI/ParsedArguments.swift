/// The values given to one command, checked against its declaration, with typed accessors.
///
/// Each accessor takes the declared name of an option, flag or positional and throws a
/// ``UsageError`` naming it when the value is missing or invalid. Reading a name the command
/// does not declare is a programming error and throws a ``CommandFailure`` with exit code 70.
public struct ParsedArguments: Sendable {
    /// The words naming the command, e.g. `["journeys", "events", "append"]`.
    public let commandPath: [String]
    /// The declaration the values were checked against.
    public let configuration: CommandConfiguration
    /// Values given per option or positional name, in command-line order.
    let values: [String: [String]]
    /// Flags that were given.
    let flags: Set<String>

    init(
        commandPath: [String], configuration: CommandConfiguration,
        values: [String: [String]], flags: Set<String>
    ) {
        self.commandPath = commandPath
        self.configuration = configuration
        self.values = values
        self.flags = flags
    }

    /// Whether the option or positional was given on the command line (defaults do not count).
    public func contains(_ name: String) throws -> Bool {
        _ = try declaredDefault(name)
        return values[name] != nil
    }

    /// The value of an option or positional, or its declared default.
    public func string(_ name: String) throws -> String {
        guard let value = try optionalString(name) else { throw missing(name) }
        return value
    }

    /// The value of an option or positional, its declared default, or `nil`.
    public func optionalString(_ name: String) throws -> String? {
        let defaultValue = try declaredDefault(name)
        return values[name]?.last ?? defaultValue
    }

    /// Every value of a repeatable option or positional; the default alone when none was given.
    public func strings(_ name: String) throws -> [String] {
        let defaultValue = try declaredDefault(name)
        return values[name] ?? defaultValue.map { [$0] } ?? []
    }

    /// Whether a flag was given.
    public func flag(_ name: String) throws -> Bool {
        guard configuration.flag(named: name) != nil else { throw undeclared(name) }
        return flags.contains(name)
    }

    /// How the name appears in messages: `--name` for options, `<name>` for positionals.
    func display(_ name: String) -> String {
        configuration.positional(named: name) != nil ? "<\(name)>" : "--\(name)"
    }

    /// An invalid-value error for `name` explaining what was expected.
    func invalid(_ name: String, _ value: String, expected: String) -> UsageError {
        UsageError(
            code: .invalidValue,
            message: "invalid value '\(value)' for '\(display(name))': expected \(expected)",
            commandPath: commandPath)
    }

    private func declaredDefault(_ name: String) throws -> String? {
        if let option = configuration.option(named: name) { return option.defaultValue }
        if configuration.positional(named: name) != nil { return nil }
        throw undeclared(name)
    }

    /// A missing-argument error for `name`.
    func missing(_ name: String) -> UsageError {
        let kind = configuration.positional(named: name) != nil ? "argument" : "option"
        return UsageError(
            code: .missingArgument, message: "missing required \(kind) '\(display(name))'",
            commandPath: commandPath)
    }

    private func undeclared(_ name: String) -> CommandFailure {
        let command = commandPath.joined(separator: " ")
        return CommandFailure("'\(command)' reads '\(name)', which it does not declare", exitCode: 70)
    }
}
