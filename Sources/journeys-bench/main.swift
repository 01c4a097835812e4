import CLI
import Cryptography
import JourneyBenchmarks

// Before any OpenSSL use: no library clean-up at exit while other threads may still use it.
OpenSSLRuntime.disableExitCleanup()

await CommandLineTool.main(root: JourneysBenchCommand.self, arguments: CommandLine.arguments)
