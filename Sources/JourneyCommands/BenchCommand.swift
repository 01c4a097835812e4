import CLI
import Foundation

/// `journeys bench …`: the benchmarks, run by the `journeys-bench` executable beside this one.
///
/// `journeys` does not link the benchmarks (load generators, Message DB's schema, pgbench and wrk
/// drivers): `journeys bench ARGS` replaces this process with `journeys-bench ARGS` found in the
/// folder of the running executable (``dispatch(_:sibling:)``, called by `main` before parsing),
/// so its options, output, JSON keys and exit code are journeys-bench's. This command is what the
/// parser sees: its help lists journeys-bench's commands for `journeys help bench`, and for
/// `journeys bench --help` when journeys-bench is missing.
public struct BenchCommand: Command {
    /// The executable that runs the benchmarks.
    public static let executableName = "journeys-bench"
    /// How to build it from a checkout.
    public static let buildCommand = "swift build -c release --product journeys-bench"
    /// journeys-bench's commands, as its own help lists them (`claims-worker` is spawned by `claims`).
    public static let commands = [
        "append", "client", "http", "e2e", "claims", "claims-worker", "rebuild", "freshness", "reports",
    ]

    public static let configuration = CommandConfiguration(
        name: "bench", summary: "Benchmarks that print figures and ratios to a same-run baseline (journeys-bench).",
        discussion: """
            Runs the journeys-bench executable in this executable's folder with the same arguments; \
            its input, output and exit code are journeys-bench's. Build it with \
            '\(buildCommand)' (a plain 'swift build' builds it too). Its commands: \
            \(commands.filter { $0 != "claims-worker" }.joined(separator: ", ")); \
            'journeys bench <command> --help' shows one's options.
            """,
        positionals: [
            PositionalSpec(
                "arguments", help: "A journeys-bench command and its options, e.g. e2e --json.",
                isRequired: false, isRepeatable: true)
        ])

    public init(arguments: ParsedArguments) throws {}

    /// Reached only in-process (tests, embedding): the `journeys` process dispatches before parsing.
    public func run() async throws {
        let sibling = SiblingExecutable(besideRunningExecutable: Self.executableName) ?? Self.unknownSibling
        throw CommandFailure(
            sibling.isPresent ? "'journeys bench' runs \(sibling.path) in a process of its own" : Self.missing(sibling))
    }

    /// What `journeys ARGUMENTS` (without the executable name) does about the benchmarks.
    public enum Route: Equatable, Sendable {
        /// Not a `bench` command: parse and run it as usual.
        case notBench
        /// Run the sibling with these arguments in place of this process.
        case exec(SiblingExecutable, arguments: [String])
        /// Help asked for while the sibling is missing: the parser prints this command's help.
        case staticHelp
        /// The sibling is missing: fail with this message.
        case missing(String)
    }

    /// Decides the ``Route`` of `arguments` (without the executable name) for `sibling`, the
    /// journeys-bench beside the running executable (`nil` when that folder is unknown).
    public static func route(_ arguments: [String], sibling: SiblingExecutable?) -> Route {
        guard arguments.first == configuration.name else { return .notBench }
        let rest = Array(arguments.dropFirst())
        if let sibling, sibling.isPresent { return .exec(sibling, arguments: rest) }
        let beforeTerminator = rest.prefix { $0 != "--" }
        if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") { return .staticHelp }
        return .missing(missing(sibling ?? unknownSibling))
    }

    /// For `main`: runs journeys-bench in place of this process for `journeys bench …`; returns
    /// when `arguments` (with the executable name) are not a bench command or ask for help that
    /// the parser prints. A missing or unrunnable journeys-bench exits with code 1.
    public static func dispatch(_ arguments: [String], sibling: SiblingExecutable?) {
        let toolName = JourneysCommand.configuration.name
        switch route(Array(arguments.dropFirst()), sibling: sibling) {
        case .notBench, .staticHelp:
            return
        case .exec(let sibling, let rest):
            let reason = sibling.exec(arguments: rest)
            StandardStream.error.write("\(toolName): error: cannot run \(sibling.path): \(reason)\n")
            exit(CommandOutcome.failureCode)
        case .missing(let message):
            StandardStream.error.write("\(toolName): error: \(message)\n")
            exit(CommandOutcome.failureCode)
        }
    }

    /// journeys-bench when the running executable's folder is unknown.
    static let unknownSibling = SiblingExecutable(name: executableName, folder: ".")

    /// The message for a missing journeys-bench.
    static func missing(_ sibling: SiblingExecutable) -> String {
        "'journeys bench' runs \(sibling.path), which is not there: build it with '\(buildCommand)' "
            + "(or run the benchmarks as 'swift run -c release \(executableName) <command>')"
    }
}
