import CLI
import Foundation
import JourneyApp

/// `journeys demo`: the whole product on one machine with no credentials.
struct DemoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "demo", summary: "Run the emulator, the service and simulated phones; print journeys by state.",
        discussion: """
            Starts the embedded PostgreSQL (or uses DATABASE_URL), the Unico emulator and the journey \
            service in this process, drives simulated SDK Lite devices through approval, rejection, \
            expiry and every SDK error code of the seed, then moves the clock and steps the workers: \
            expired tokens are detected, retryable journeys get fresh Unico processes (one user comes \
            back and is approved on attempt 2), the rest are abandoned when the demo's retry budget \
            (3 attempts) is spent. Prints each journey's state and attempts.
            """,
        options: [.optional("approvals", valueName: "N", help: "Journeys that end approved.", default: "12")])
    let approvals: Int

    init(arguments: ParsedArguments) throws {
        approvals = try arguments.int("approvals", in: 1...500)
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 12)
        defer { database.close() }
        let out = AppEnvironment.current.writeLine
        let summary = try await DemoRunner(database: database, approvals: approvals, log: { StandardStream.error.writeLine($0) }).run()
        var table = TextTable(columns: ["scenario", "journey status", "attempts", "outcome", "last SDK error"])
        for row in summary.byScenario.sorted(by: { $0.label < $1.label }) {
            table.append([row.label, row.status, String(row.attempts), row.outcome, row.lastError])
        }
        out(table.render())
        var counts: [String: Int] = [:]
        for row in summary.byScenario { counts[row.status, default: 0] += 1 }
        out("journeys by state: " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }
}
