import CLI
import Cryptography
import JourneyCommands

// Before any OpenSSL use: no library clean-up at exit while other threads may still use it.
OpenSSLRuntime.disableExitCleanup()

await CommandLineTool.main(root: JourneysCommand.self, arguments: CommandLine.arguments)
