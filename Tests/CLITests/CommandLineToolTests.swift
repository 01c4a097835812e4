@testable import CLI
import Testing

@Suite("Running a tool in-process")
struct CommandLineToolTests {
    private func execute(_ words: [String]) async -> (result: ToolResult, entries: [String]) {
        let recorder = Recorder()
        let result = await Recorder.$current.withValue(recorder) {
            await CommandLineTool.execute(root: SampleTool.self, arguments: words)
        }
        return (result, await recorder.entries)
    }

    @Test func runsTheNamedCommandWithItsValues() async {
        let (result, entries) = await execute([
            "events", "append", "--stream", "s-1", "--type=Started", "--tag", "a", "--json",
        ])
        #expect(result == ToolResult(exitCode: 0))
        #expect(entries == [#"append s-1 Started {} any ["a"] json=true"#])
    }

    @Test func usageErrorsExit64WithMessageAndHint() async {
        let (result, entries) = await execute(["events", "append", "--strem", "s", "--type", "T"])
        #expect(result.exitCode == 64)
        #expect(result.standardOutput == "")
        #expect(
            result.standardError == """
                journeys: error: unknown option '--strem'; did you mean '--stream'?
                Run 'journeys events append --help' for usage.

                """)
        #expect(entries.isEmpty)
    }

    @Test func invalidValuesFoundByTheCommandAreUsageErrors() async {
        let (result, entries) = await execute(["bench", "--writers", "100"])
        #expect(result.exitCode == 64)
        #expect(result.standardError.hasPrefix("journeys: error: invalid value '100' for '--writers'"))
        #expect(result.standardError.hasSuffix("Run 'journeys bench --help' for usage.\n"))
        #expect(entries.isEmpty)
    }

    @Test func helpGoesToStandardOutputAndExits0() async {
        let (result, _) = await execute(["help", "events", "append"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Usage: journeys events append --stream <S> --type <T> [<options>]"))
        #expect(result.standardError == "")
    }

    @Test func aGroupWithoutSubcommandPrintsItsHelpAndExits64() async {
        let (result, _) = await execute(["events"])
        #expect(result.exitCode == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Append, read and tail events.\n\nUsage: journeys events <command>"))
        #expect(result.standardError.hasSuffix("\njourneys: error: 'journeys events' needs a subcommand\n"))
    }

    @Test func runtimeErrorsExit1WithTheirDescription() async {
        let (result, _) = await execute(["fail", "--message", "database unreachable"])
        #expect(result == ToolResult(exitCode: 1, standardError: "journeys: error: database unreachable\n"))
    }

    @Test func errorsMayCarryTheirOwnExitCode() async {
        let (result, _) = await execute(["fail", "--message", "chain broken", "--code", "2"])
        #expect(result == ToolResult(exitCode: 2, standardError: "journeys: error: chain broken\n"))
        let (silent, _) = await execute(["fail", "--message=", "--code", "3"])
        #expect(silent == ToolResult(exitCode: 3))
    }

    @Test func cancellationExits130() async {
        let recorder = Recorder()
        let task = Task {
            await Recorder.$current.withValue(recorder) {
                await CommandLineTool.execute(root: SampleTool.self, arguments: ["wait"])
            }
        }
        task.cancel()
        let result = await task.value
        #expect(result.exitCode == 130)
        #expect(result.standardError == "journeys: cancelled\n")
    }
}
