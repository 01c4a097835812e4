@testable import JourneyBenchmarks
import JourneyTesting
import Testing

/// `bench rebuild` over a small interleaved history: journeys in flight at once, each one's events
/// spread over its group's, and the rebuild still writes every journey.
@Suite struct RebuildBenchmarkTests {
    @Test func anInterleavedHistorySpreadsEachJourneysEventsOverItsGroup() async throws {
        try await TestDatabase.with { db in
            var configuration = RebuildBenchmark.Configuration()
            configuration.events = 500
            configuration.interleave = 30
            configuration.parallelism = 2
            let result = try await RebuildBenchmark(client: db.owner, configuration: configuration).run()
            #expect(result.interleave == 30)
            #expect(result.events >= 500)
            #expect(result.rows_journey_state == result.journeys)
            // The log starts with the first event of each of the first group's 30 journeys, then their second ones.
            let versions = try await db.owner.query("SELECT stream_version FROM events ORDER BY position LIMIT 60")
                .map { try $0.decode(0, as: Int64.self) }
            #expect(versions == Array(repeating: 1, count: 30) + Array(repeating: 2, count: 30))
            let firstJourneys = try await db.owner.query(
                "SELECT count(DISTINCT stream_name) FROM (SELECT stream_name FROM events ORDER BY position LIMIT 30) e"
            )
            .first!.decode(0, as: Int.self)
            #expect(firstJourneys == 30)
        }
    }
}
