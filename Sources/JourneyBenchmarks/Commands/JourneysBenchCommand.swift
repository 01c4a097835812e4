import CLI
import JourneyApp

/// `journeys-bench`: measurements with a baseline from the same run.
///
/// An executable of its own so that `journeys` does not link the benchmarks; `journeys bench …`
/// runs it (see `BenchCommand` in JourneyCommands).
public struct JourneysBenchCommand: CommandGroup {
    public static let configuration = CommandConfiguration(
        name: "journeys-bench", summary: "Benchmarks that print figures and ratios to a same-run baseline.",
        discussion: """
            Also run as 'journeys bench <command>' by the journeys executable beside it. Like \
            journeys, without DATABASE_URL the benchmarks use the private PostgreSQL cluster in \
            .journeys/pg (JOURNEYS_PG_DIR); each command's help says which database it writes.
            """,
        subcommands: [
            BenchAppend.self, BenchClient.self, BenchHTTP.self, BenchE2E.self, BenchClaims.self, BenchClaimsWorker.self,
            BenchRebuild.self,
            BenchFreshness.self, BenchReports.self,
        ])
    public init() {}

    /// Runs `journeys-bench arguments` in this process with `variables` as its whole environment
    /// and returns its exit code, what it printed (captured lines, then buffered output) and its
    /// errors. For tests; `main` runs the real process instead.
    public static func run(_ arguments: [String], variables: [String: String]) async
        -> (code: Int32, output: String, error: String)
    {
        let capture = OutputCapture()
        let environment = AppEnvironment(variables: variables, writeLine: { capture.append($0) })
        let result = await AppEnvironment.$current.withValue(environment) {
            await CommandLineTool.execute(root: JourneysBenchCommand.self, arguments: arguments)
        }
        return (result.exitCode, capture.text + result.standardOutput, result.standardError)
    }
}
