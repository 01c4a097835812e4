@testable import CLI
import Foundation
import Testing

@Suite("Outcomes and exit codes")
struct CommandOutcomeTests {
    struct Plain: Error {}

    struct Described: Error, CustomStringConvertible {
        var description: String { "the ledger is closed" }
    }

    struct Localized: LocalizedError {
        var errorDescription: String? { "disk full" }
    }

    struct Tampered: CLIError {
        var description: String { "chain broken at position 42" }
        var exitCode: Int32 { 2 }
    }

    struct DefaultCode: CLIError {
        var description: String { "no database" }
    }

    private let usage = UsageError(
        code: .unknownOption, message: "unknown option '--x'", commandPath: ["journeys", "bench"])

    @Test func exitCodes() {
        #expect(CommandOutcome.success.exitCode == 0)
        #expect(CommandOutcome.helpShown.exitCode == 0)
        #expect(CommandOutcome.usageError(usage).exitCode == 64)
        #expect(CommandOutcome.failure(Plain()).exitCode == 1)
        #expect(CommandOutcome.failure(Tampered()).exitCode == 2)
        #expect(CommandOutcome.failure(DefaultCode()).exitCode == 1)
        #expect(CommandOutcome.failure(CommandFailure.exit(3)).exitCode == 3)
        #expect(CommandOutcome.cancelled.exitCode == 130)
    }

    @Test func errorsAreClassified() {
        #expect(CommandOutcome(error: usage).exitCode == 64)
        #expect(CommandOutcome(error: CancellationError()).exitCode == 130)
        #expect(CommandOutcome(error: Tampered()).exitCode == 2)
    }

    @Test func usageErrorsCarryAHelpHint() {
        #expect(
            CommandOutcome.usageError(usage).diagnostic(toolName: "journeys")
                == "journeys: error: unknown option '--x'\nRun 'journeys bench --help' for usage.\n")
        let missing = UsageError(
            code: .missingSubcommand, message: "'journeys events' needs a subcommand",
            commandPath: ["journeys", "events"])
        #expect(
            CommandOutcome.usageError(missing).diagnostic(toolName: "journeys")
                == "journeys: error: 'journeys events' needs a subcommand\n")
    }

    @Test func failuresAreDescribed() {
        #expect(
            CommandOutcome.failure(Tampered()).diagnostic(toolName: "journeys")
                == "journeys: error: chain broken at position 42\n")
        #expect(
            CommandOutcome.failure(Described()).diagnostic(toolName: "journeys")
                == "journeys: error: the ledger is closed\n")
        #expect(CommandOutcome.failure(Localized()).diagnostic(toolName: "journeys") == "journeys: error: disk full\n")
        #expect(CommandOutcome.failure(Plain()).diagnostic(toolName: "journeys") == "journeys: error: Plain()\n")
        #expect(CommandOutcome.failure(CommandFailure.exit(2)).diagnostic(toolName: "journeys") == nil)
        #expect(CommandOutcome.success.diagnostic(toolName: "journeys") == nil)
        #expect(CommandOutcome.cancelled.diagnostic(toolName: "journeys") == "journeys: cancelled\n")
    }
}
