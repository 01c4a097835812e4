@testable import JourneyBenchmarks
import Testing

@Suite struct BenchmarkParsingTests {
    let report = """
        Running 4s test @ http://127.0.0.1:4000/ping
          2 threads and 50 connections
          Latency Distribution
             50%  860.00us
             75%    1.20ms
             90%    2.01ms
             99%    3.62ms
          211372 requests in 4.00s, 20.16MB read
        Requests/sec:  52843.11
        Transfer/sec:      5.04MB
        """

    @Test func readsThroughputAndPercentilesFromWrk() {
        #expect(HTTPBenchmark.number(after: "Requests/sec:", in: report) == 52843.11)
        #expect(HTTPBenchmark.latency("50%", in: report) == 0.86)
        #expect(HTTPBenchmark.latency("99%", in: report) == 3.62)
        #expect(HTTPBenchmark.latency("99.9%", in: report) == nil)
    }

    @Test func latencyStatsUseNearestRankPercentiles() {
        let stats = LatencyStats(durations: (1...100).map { Double($0) / 1000 }, seconds: 2)
        #expect(stats.operations == 100)
        #expect(stats.perSecond == 50)
        #expect(abs(stats.p50Milliseconds - 50) < 1e-9)
        #expect(abs(stats.p99Milliseconds - 99) < 1e-9)
    }
}
