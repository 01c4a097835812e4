import Foundation
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct ProjectionsCommandTests {
    @Test func runStatusAndRebuildFromTheCommandLine() async throws {
        try await TestDatabase.with(poolSize: 12) { db in
            #expect(await journeys(["demo", "--approvals", "1"], database: db).code == 0)
            let journeysInLog = try await db.app.query(
                "SELECT count(DISTINCT stream_name) FROM events WHERE stream_name LIKE 'journey-%'"
            )
            .first!.decode(0, as: Int.self)
            #expect(journeysInLog > 10)

            // Other tests' transactions can hold the horizon back for a moment: retry until caught up.
            try await waitUntil("every journey projected") {
                let run = await journeys(["projections", "run", "--once"], database: db)
                #expect(run.code == 0, "\(run.error)")
                return try await db.app.query("SELECT count(*) FROM journey_state").first!.decode(0, as: Int.self)
                    >= journeysInLog
            }
            #expect(try await db.app.query("SELECT count(*) FROM journey_state").first!.decode(0, as: Int.self) == journeysInLog)
            let status = await journeys(["projections", "status"], database: db)
            #expect(status.code == 0)
            #expect(status.output.contains("journey_state"))

            let before = try await db.app.query("SELECT journey_id::text, status FROM journey_state ORDER BY 1").map {
                "\(try $0.decode(0, as: String.self))=\(try $0.decode(1, as: String.self))"
            }
            let rebuilt = await journeys(["projections", "rebuild", "journey_state"], database: db)
            #expect(rebuilt.code == 0, "\(rebuilt.error)")
            #expect(rebuilt.output.contains("rebuilt journey_state"))
            let after = try await db.app.query("SELECT journey_id::text, status FROM journey_state ORDER BY 1").map {
                "\(try $0.decode(0, as: String.self))=\(try $0.decode(1, as: String.self))"
            }
            #expect(after == before)

            let unknown = await journeys(["projections", "rebuild", "nope"], database: db)
            #expect(unknown.code == 64)
            #expect(unknown.error.contains("journey_state"))
        }
    }
}
