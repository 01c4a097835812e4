import CLI
import Cryptography
import JourneyCommands

// `journeys bench …` is the journeys-bench executable beside this one (this one does not link
// the benchmarks): run it in place of this process before anything else starts.
BenchCommand.dispatch(CommandLine.arguments, sibling: SiblingExecutable(besideRunningExecutable: BenchCommand.executableName))

// Before any OpenSSL use: no library clean-up at exit while other threads may still use it.
OpenSSLRuntime.disableExitCleanup()

await CommandLineTool.main(root: JourneysCommand.self, arguments: CommandLine.arguments)
