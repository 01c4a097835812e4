import CLI
import Foundation
import JourneyBenchmarks
import JourneyCommands
import Testing

/// `journeys bench …` runs journeys-bench: its commands, help and the route decided for a command line.
@Suite struct BenchDispatchTests {
    @Test func journeysBenchHasTheCommandsThatJourneysBenchListsAndTheirHelp() async {
        let names = JourneysBenchCommand.configuration.subcommands.map { $0.configuration.name }
        #expect(names == BenchCommand.commands)
        #expect(CommandConfiguration.problems(inTree: JourneysBenchCommand.self).isEmpty)
        for command in names {
            let help = await JourneysBenchCommand.run([command, "--help"], variables: [:])
            #expect(help.code == 0, "\(command)")
            #expect(help.output.contains("Usage: journeys-bench \(command)"), "\(command)")
        }
        let e2e = await JourneysBenchCommand.run(["e2e", "--help"], variables: [:])
        for option in ["--seconds", "--clients", "--load-client", "--json", "--through-pgbouncer"] {
            #expect(e2e.output.contains(option), "\(option)")
        }
    }

    @Test func benchRunsTheSiblingWithTheRestOfTheArguments() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sibling = SiblingExecutable(name: BenchCommand.executableName, folder: folder)
        #expect(!sibling.isPresent)
        #expect(
            FileManager.default.createFile(
                atPath: sibling.path, contents: Data("#!/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        #expect(sibling.isPresent)
        #expect(
            BenchCommand.route(["bench", "e2e", "--seconds", "1", "--json"], sibling: sibling)
                == .exec(sibling, arguments: ["e2e", "--seconds", "1", "--json"]))
        #expect(BenchCommand.route(["bench", "--help"], sibling: sibling) == .exec(sibling, arguments: ["--help"]))
        #expect(BenchCommand.route(["bench"], sibling: sibling) == .exec(sibling, arguments: []))
        // Other commands, and `bench` anywhere but first, are the parser's.
        #expect(BenchCommand.route(["serve", "bench"], sibling: sibling) == .notBench)
        #expect(BenchCommand.route(["help", "bench"], sibling: sibling) == .notBench)
        #expect(BenchCommand.route([], sibling: sibling) == .notBench)
    }

    @Test func aMissingSiblingSaysHowToBuildItAndHelpStillListsTheCommands() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sibling = SiblingExecutable(name: BenchCommand.executableName, folder: folder)
        guard case .missing(let message) = BenchCommand.route(["bench", "e2e", "--json"], sibling: sibling) else {
            Issue.record("expected .missing")
            return
        }
        #expect(message.contains("\(folder)/journeys-bench"))
        #expect(message.contains("swift build -c release --product journeys-bench"))
        #expect(BenchCommand.route(["bench", "e2e", "--help"], sibling: sibling) == .staticHelp)
        #expect(BenchCommand.route(["bench", "-h"], sibling: sibling) == .staticHelp)
        #expect(BenchCommand.route(["bench", "--", "--help"], sibling: sibling) != .staticHelp)

        // The static help, as the parser prints it for `journeys bench --help` and `journeys help bench`.
        for arguments in [["bench", "--help"], ["bench", "e2e", "--help"], ["help", "bench"]] {
            let help = await JourneysCommand.run(arguments, variables: [:])
            #expect(help.code == 0, "\(arguments)")
            let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("journeys-bench") && text.contains("swift build -c release --product journeys-bench"))
            for command in BenchCommand.commands where command != "claims-worker" {
                #expect(text.contains(command), "\(command)")
            }
        }
        let root = await JourneysCommand.run(["--help"], variables: [:])
        #expect(root.output.contains("\n  bench "))
    }

    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "bench-dispatch-\(UUID().uuidString.lowercased())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
