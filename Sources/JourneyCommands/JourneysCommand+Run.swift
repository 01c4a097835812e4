import CLI
import JourneyApp

extension JourneysCommand {
    /// Runs `journeys arguments` in this process with `variables` as its whole environment and
    /// returns its exit code, what it printed (captured lines, then buffered output) and its errors.
    /// For tests and for embedding the tool; `main` runs the real process instead.
    public static func run(_ arguments: [String], variables: [String: String]) async
        -> (code: Int32, output: String, error: String)
    {
        let capture = OutputCapture()
        let environment = AppEnvironment(variables: variables, writeLine: { capture.append($0) })
        let result = await AppEnvironment.$current.withValue(environment) {
            await CommandLineTool.execute(root: JourneysCommand.self, arguments: arguments)
        }
        return (result.exitCode, capture.text + result.standardOutput, result.standardError)
    }
}
