import CLI
import Foundation
import JourneyApp
import UnicoEmulator

/// `journeys demo`: the whole product on one machine with no credentials.
struct DemoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "demo", summary: "Run the emulator, the service and simulated phones; print journeys by state.",
        discussion: """
            Starts the embedded PostgreSQL (or uses DATABASE_URL), the Unico emulator and the journey \
            service in this process, drives simulated SDK Lite devices through approval, rejection, \
            expiry and every SDK error code of the seed, then moves the clock and steps the workers, \
            which expire tokens and allow retries; a process is created only when the app asks for a \
            token. Named scenarios: "absent user" (never comes back: one Unico process, abandoned as \
            userAbsent after the demo's 300 s window), "late approval" (the capture opened in time \
            and finished after the 5 minutes, within the 60 s grace) and "late approval, after retry" \
            (finished once the app had started attempt 2): both approved, "closed camera, came back" \
            (attempt 2 on a new process, approved) and "expired, came back". Prints each journey's \
            state, attempts and Unico processes, then the journeys by state.
            """,
        options: [
            .optional("approvals", valueName: "N", help: "Journeys that end approved.", default: "12"),
            .optional(
                "response-shape", valueName: "SHAPE",
                help: "The emulator's process answers: wrapped (inside \"process\", documented) or flat.",
                default: "wrapped"),
        ])
    let approvals: Int
    let responseShape: UnicoEmulator.ResponseShape

    init(arguments: ParsedArguments) throws {
        approvals = try arguments.int("approvals", in: 1...500)
        let shape = try arguments.string("response-shape")
        guard let parsed = UnicoEmulator.ResponseShape(rawValue: shape) else {
            throw AppError(.invalidInput, "--response-shape must be wrapped or flat, not \(shape)")
        }
        responseShape = parsed
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 12)
        defer { database.close() }
        let out = AppEnvironment.current.writeLine
        let summary = try await DemoRunner(
            database: database, approvals: approvals, responseShape: responseShape, log: { StandardStream.error.writeLine($0) }
        ).run()
        var table = TextTable(columns: ["scenario", "journey status", "attempts", "Unico processes", "outcome", "last SDK error"])
        for row in summary.rows.sorted(by: { $0.label < $1.label }) {
            table.append([row.label, row.status, String(row.attempts), String(row.processes), row.outcome, row.lastError])
        }
        out(table.render())
        var counts: [String: Int] = [:]
        for row in summary.rows { counts[row.status, default: 0] += 1 }
        out("journeys by state: " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    }
}
