@testable import CLI
import Testing

@Suite("Help")
struct HelpTests {
    private func helpPath(_ words: [String]) -> CommandPath? {
        if case .help(let path) = CommandParser.parse(words, root: SampleTool.self) { return path }
        return nil
    }

    private func help(_ words: [String]) -> String {
        helpPath(words).map(HelpFormatter.help(for:)) ?? ""
    }

    @Test func leafHelpShowsUsageOptionsDefaultsAndDiscussion() {
        let text = help(["events", "append", "--help"])
        #expect(
            text == """
                Append one event to a stream.

                Usage: journeys events append --stream <S> --type <T> [<options>]

                Fails when the stream's version differs from --expected-version.

                Options:
                  --stream <S>   Stream to append to. (required)
                  --type <T>     Event type. (required)
                  --data <JSON>  Event payload. (default: {})
                  --expected-version <N|any|no-stream>
                                 Optimistic check. (default: any)
                  --id <UUID>    Event id for idempotency.
                  --tag <TAG>    A tag; repeat for more. (repeatable)
                  --json         Print the stored event as JSON.
                  -h, --help     Show help for this command.

                """)
    }

    @Test func groupHelpListsSubcommandsWithSummaries() {
        let text = help(["events", "-h"])
        #expect(text.contains("Usage: journeys events <command>"))
        #expect(text.contains("Append, read and tail events."))
        #expect(text.contains("Commands:\n  append  Append one event to a stream.\n  read    Print a stream's events."))
        #expect(text.contains("Run 'journeys events <command> --help' for help on a command."))
        #expect(!text.contains("  help "))
    }

    @Test func rootHelpListsTheHelpCommand() {
        let text = help(["--help"])
        #expect(text.hasPrefix("Run and inspect human token journeys.\n\nUsage: journeys <command>\n"))
        #expect(text.contains("  events  Append, read and tail events."))
        #expect(text.contains("  help    Show help for a command."))
    }

    @Test func positionalsAppearInUsageAndArguments() {
        let text = help(["report", "--help"])
        #expect(text.contains("Usage: journeys report --from <DATE> [<options>] <name> [<filters>...]"))
        #expect(
            text.contains(
                "Arguments:\n  <name>          The report to run.\n  [<filters>...]  Extra filters. (optional)"))
        #expect(text.contains("--format <FORMAT>  Output format. (default: table)"))
    }

    @Test func helpAnywhereNamesTheDeepestCommand() {
        #expect(helpPath(["events", "--help", "append"])?.names == ["journeys", "events", "append"])
        #expect(helpPath(["events", "append", "--stream", "-h"])?.names == ["journeys", "events", "append"])
        #expect(helpPath(["bench", "--writers", "nope", "--help"])?.names == ["journeys", "bench"])
        #expect(helpPath(["events", "apend", "--help"])?.names == ["journeys", "events"])
    }

    @Test func helpAfterDoubleDashIsAValue() throws {
        let (_, arguments) = try parsed(["report", "--from", "2024-05-01", "--", "--help"])
        #expect(try arguments.string("name") == "--help")
    }

    @Test func helpCommandNamesAPath() {
        #expect(helpPath(["help"])?.names == ["journeys"])
        #expect(helpPath(["help", "events"])?.names == ["journeys", "events"])
        #expect(helpPath(["help", "events", "append"])?.names == ["journeys", "events", "append"])
    }

    @Test func helpCommandRejectsUnknownPaths() {
        #expect(
            usageError(["help", "events", "apend"])?.message
                == "unknown command 'apend' for 'journeys events'; did you mean 'append'?")
        #expect(
            usageError(["help", "bench", "extra"])?.message
                == "'journeys bench' has no subcommands, so 'extra' names nothing")
    }
}
