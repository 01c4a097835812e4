import Foundation
import JourneyTesting
import Testing

@Suite struct BenchE2ECommandTests {
    @Test func endToEndBenchmarkReportsStartsWithoutFailures() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            let result = await journeysBench(["e2e", "--seconds", "0.5", "--clients", "2", "--json"], database: db)
            #expect(result.code == 0, "\(result.error)")
            let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            let starts = json?["journey_start"] as? [String: Any]
            #expect((starts?["starts_per_s"] as? Double ?? 0) > 0)
            #expect(starts?["failures"] as? Int == 0)
            #expect((starts?["ratio_to_baseline"] as? Double ?? 0) > 0)
            let journeys = try await db.app.query("SELECT count(DISTINCT stream_name) FROM events").first!.decode(0, as: Int.self)
            #expect(journeys > 0)
        }
    }

    @Test func throughPgBouncerNeedsTheEmbeddedClusterAndSaysWhatToDoInstead() async throws {
        try await TestDatabase.with(poolSize: 8) { db in
            let result = await journeysBench(["e2e", "--seconds", "0.5", "--clients", "1", "--through-pgbouncer"], database: db)
            #expect(result.code != 0)
            #expect(result.error.contains("run bench e2e twice"))
        }
    }
}
