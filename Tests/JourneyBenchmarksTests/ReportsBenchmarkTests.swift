@testable import JourneyBenchmarks
import JourneyTesting
import Testing

/// `bench reports` on a small generated history: every report and window answers exactly as the
/// same report over every journey of the window (the time-to-result ranks read through the seconds
/// indexes of migration 0028 included), under the JSON keys the benchmark has always printed.
@Suite struct ReportsBenchmarkTests {
    @Test func everyReportOverTheGeneratedHistoryIsExact() async throws {
        try await TestDatabase.with { db in
            var configuration = ReportsBenchmark.Configuration()
            configuration.journeys = 4_000
            configuration.runs = 1
            let result = try await ReportsBenchmark(client: db.owner, configuration: configuration).run()
            #expect(result.journeys == 4_000)
            #expect(result.attempts > 4_000)
            #expect(result.timings.count == 16)
            for timing in result.timings { #expect(timing.exact, "\(timing.report) over \(timing.window)") }
            #expect(result.all_exact)
            #expect(result.timings.first { $0.report == "time-to-result" && $0.window == "1y" }?.journeys_in_window ?? 0 > 1_500)
        }
    }
}
