import CLI
import Foundation
import JourneyCommands
import JourneyTesting
import Testing

@Suite struct DemoCommandTests {
    /// The demo drives every seed SDK code through real HTTP, the emulator and PostgreSQL.
    @Test func demoReachesEveryScenarioWithItsSDKCode() async throws {
        let db = try await TestDatabase.create(poolSize: 12)
        defer { Task { await db.drop() } }
        let result = await journeys(["demo", "--approvals", "2"], database: db)
        #expect(result.code == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        func row(_ label: String) -> String? { lines.first { $0.hasPrefix(label) } }
        for code in ["73203", "73006", "73302", "73303", "73304", "73305", "73701", "74001"] {
            let line = try #require(row(code), "no row for \(code)")
            #expect(line.hasSuffix(code), "\(line)")
        }
        #expect(!result.output.contains("start refused"))
        #expect(row("approved")?.contains("completed") == true)
        #expect(row("approved")?.contains("approved") == true)
        #expect(row("rejected")?.contains("rejected") == true)
        // The workers: a user who came back after expiry is approved on a fresh process (attempt 2);
        // one who never did costs one process and is abandoned after the demo's window.
        let retried = try #require(row("expired, retried, approved"))
        #expect(retried.contains("completed") && retried.contains("approved"), "\(retried)")
        #expect(retried.split(separator: " ").contains("2"), "\(retried)")
        let absent = try #require(row("expired, never came back"))
        #expect(absent.contains("abandoned") && absent.split(separator: " ").contains("1"), "\(absent)")
        let reasons = try await db.owner.query("""
            SELECT count(*) FROM events WHERE event_type = 'JourneyAbandoned'
            """)
        #expect(try reasons.first?.decode(0, as: Int.self) ?? 0 >= 1)
        #expect(result.output.contains("journeys by state:"))
        let plaintext = try await db.superuser.query("SELECT count(*) FROM events WHERE data::text LIKE '%Demo Person%'")
        #expect(try plaintext.first?.decode(0, as: Int.self) == 0)
    }
}
