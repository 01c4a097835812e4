import CLI
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct DemoCommandTests {
    /// The demo drives every seed SDK code and the named scenarios of one process per capture
    /// through real HTTP, the emulator and PostgreSQL, with Unico's process answers in either shape.
    @Test(arguments: ["wrapped", "flat"])
    func demoReachesEveryScenarioWithItsSDKCodeAndUnicoProcesses(shape: String) async throws {
        try await TestDatabase.with(poolSize: 12) { db in
            let result = await journeys(["demo", "--approvals", "2", "--response-shape", shape], database: db)
            #expect(result.code == 0, "\(result.error)")
            let table = DemoTable(result.output)
            #expect(table.header == ["scenario", "journey status", "attempts", "Unico processes", "outcome", "last SDK error"])
            for code in ["73203", "73006", "73302", "73303", "73304", "73305", "73701", "74001"] {
                let row = try #require(table.rows.first { $0[0].hasPrefix(code) }, "no row for \(code)")
                #expect(row.last == code, "\(row)")
            }
            #expect(!result.output.contains("start refused"))
            #expect(table.rows("approved").count == 2)
            #expect(table.rows("approved").allSatisfy { $0[1] == "completed" && $0[4] == "approved" && $0[3] == "1" })
            #expect(table.rows("rejected").first?[4] == "rejected")

            // Absent user: never came back after the first token expired; one process, abandoned after the window.
            #expect(try table.row("absent user") == ["absent user", "abandoned", "1", "1", "userAbsent", "-"])
            // Late approval: the capture opened in time and finished after the 5 minutes (within the grace).
            #expect(try table.row("late approval") == ["late approval", "completed", "1", "1", "approved", "-"])
            // ...and after the grace, once the app had started attempt 2 on its own process: still approved.
            #expect(
                try table.row("late approval, after retry")
                    == ["late approval, after retry", "completed", "2", "2", "approved", "-"])
            // Closed the camera (a reported drop-off), came back: attempt 2 on a new process, approved.
            #expect(
                try table.row("closed camera, came back") == ["closed camera, came back", "completed", "2", "2", "approved", "-"])
            #expect(try table.row("expired, came back") == ["expired, came back", "completed", "2", "2", "approved", "-"])
            // A user who closed the camera and never came back costs one process.
            #expect(try table.row("closed camera") == ["closed camera", "abandoned", "1", "1", "userAbsent", "-"])

            // Signed up (no Unico call), captured a day later: one process, made at the capture.
            #expect(
                try table.row("signed up, captured a day later")
                    == ["signed up, captured a day later", "completed", "1", "1", "approved", "-"])
            // Camera permission denied (full SDK code, not on the SDK Lite page): attempt 1 failed, the
            // journey stayed open; permission granted, attempt 2 on a new process, approved.
            #expect(
                try table.row("camera permission denied, then granted")
                    == ["camera permission denied, then granted", "completed", "2", "2", "approved", "73705"])
            // Came back after 20 minutes with a renewed client token: the same journey, attempt 2, approved.
            #expect(
                try table.row("came back after 20 minutes")
                    == ["came back after 20 minutes", "completed", "2", "2", "approved", "-"])
            // A link journey whose person opened the link an hour later and captured through it: one process.
            #expect(
                try table.row("link journey, opened after an hour")
                    == ["link journey, opened after an hour", "completed", "1", "1", "approved", "-"])
            // Abandoned with an opened capture the app never reported; Unico's webhook completed it late.
            #expect(
                try table.row("approved after abandonment")
                    == ["approved after abandonment", "completed", "1", "1", "approved after abandonment", "-"])
            let abandonedFirst = try await db.owner.query(
                """
                SELECT count(*) FROM events WHERE event_type = 'JourneyAbandoned'
                AND stream_name IN (SELECT stream_name FROM events WHERE event_type = 'JourneyCompleted')
                """)
            #expect(try abandonedFirst.first?.decode(0, as: Int.self) == 1)

            let dropOffs = try await db.owner.query("SELECT count(*) FROM events WHERE event_type = 'CaptureClosedByUser'")
            #expect(try dropOffs.first?.decode(0, as: Int.self) == 2)
            // The processes column counts what Unico was asked for: ProcessCreated events per journey.
            let created = try await db.owner.query("SELECT count(*) FROM events WHERE event_type = 'ProcessCreated'")
            let shown = table.rows.compactMap { Int($0[3]) }.reduce(0, +)
            #expect(try created.first?.decode(0, as: Int.self) == shown)

            let last = try #require(result.output.split(separator: "\n").last.map(String.init))
            #expect(last.hasPrefix("journeys by state:"))
            #expect(last.range(of: "completed=[1-9]", options: .regularExpression) != nil, "\(last)")
            let plaintext = try await db.superuser.query("SELECT count(*) FROM events WHERE data::text LIKE '%Demo Person%'")
            #expect(try plaintext.first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func demoRefusesAnUnknownResponseShape() async throws {
        try await TestDatabase.with { db in
            let result = await journeys(["demo", "--response-shape", "nested"], database: db)
            #expect(result.code != 0)
            #expect(result.error.contains("--response-shape must be wrapped or flat, not nested"), "\(result.error)")
        }
    }
}

/// The demo's journey table, cells split on the two-space column gap.
private struct DemoTable {
    let header: [String]
    let rows: [[String]]

    init(_ output: String) {
        let lines = output.split(separator: "\n").map(String.init)
        let cells = lines.map { line in
            line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let header = cells.first ?? []
        self.header = header
        rows = cells.dropFirst(2).filter { $0.count == header.count }
    }

    func rows(_ label: String) -> [[String]] { rows.filter { $0.first == label } }

    func row(_ label: String) throws -> [String] {
        try #require(rows(label).first, "no row \(label)")
    }
}
