import Foundation
import JourneyTesting
import Testing

/// `journeys-bench rebuild` and `freshness`, run in-process.
@Suite struct BenchCommandTests {
    @Test func rebuildBenchmarkProjectsEveryGeneratedJourneyAndNamesItsFigures() async throws {
        try await TestDatabase.with { db in
            let result = await journeysBench(["rebuild", "--events", "3000", "--batch-size", "500", "--json"], database: db)
            #expect(result.code == 0, "\(result.error)")
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let events = try #require(figures["events"] as? Int)
            let journeyCount = try #require(figures["journeys"] as? Int)
            #expect(events >= 3000 && events < 3100)
            #expect(figures["rows_journey_state"] as? Int == journeyCount)
            #expect((figures["rebuild_events_per_s"] as? Double ?? 0) > 0)
            #expect((figures["read_events_per_s"] as? Double ?? 0) > 0)
            #expect(figures["ratio_to_read"] is Double)
            // The generated histories fold like real ones: completed, abandoned and in-progress journeys.
            let statuses = try await db.owner.query("SELECT status, count(*) FROM journey_state GROUP BY 1 ORDER BY 1")
                .map { try $0.decode(0, as: String.self) }
            #expect(statuses == ["abandoned", "completed", "tokenIssued"])

            let again = await journeysBench(["rebuild", "--events", "10"], database: db)
            #expect(again.code == 64)
            #expect(again.error.contains("empty log"))
            let bad = await journeysBench(["rebuild", "--events", "0"], database: db)
            #expect(bad.code == 64)
        }
    }

    @Test func freshnessBenchmarkMeasuresEveryPacedAppend() async throws {
        try await TestDatabase.with(poolSize: 4) { db in
            let result = await journeysBench(
                ["freshness", "--writers", "2", "--seconds", "1", "--probe-seconds", "0.5", "--json"],
                database: db)
            #expect(result.code == 0, "\(result.error)")
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let samples = try #require(figures["samples"] as? Int)
            #expect(samples > 0)
            let p50 = try #require(figures["p50_ms"] as? Double)
            let p99 = try #require(figures["p99_ms"] as? Double)
            #expect(p50 > 0 && p99 >= p50)
            #expect((figures["sustainable_appends_per_s"] as? Double ?? 0) > 0)
            let projected = try await db.owner.query("SELECT count(*) FROM journey_state").first!.decode(0, as: Int.self)
            #expect(projected >= samples)
        }
    }
}
