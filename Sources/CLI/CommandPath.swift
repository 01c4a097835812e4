/// The chain of commands named on a command line, from the root to the deepest one.
public struct CommandPath: Sendable {
    /// The commands, root first; never empty.
    public private(set) var commands: [any Command.Type]

    public init(root: any Command.Type) {
        commands = [root]
    }

    /// The deepest command named.
    public var command: any Command.Type { commands[commands.count - 1] }

    /// The deepest command's configuration.
    public var configuration: CommandConfiguration { command.configuration }

    /// The words naming the path, e.g. `["journeys", "events", "append"]`.
    public var names: [String] { commands.map { $0.configuration.name } }

    /// The names joined with spaces, e.g. `journeys events append`.
    public var invocation: String { names.joined(separator: " ") }

    /// The path extended by one subcommand.
    func appending(_ command: any Command.Type) -> CommandPath {
        var copy = self
        copy.commands.append(command)
        return copy
    }
}
