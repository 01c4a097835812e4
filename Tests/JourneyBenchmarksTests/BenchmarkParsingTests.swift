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

    @Test func readsThroughputAndLatencyFromPgbench() {
        let output = """
            transaction type: /tmp/journeys-pgbench-1/script.sql
            number of clients: 8
            number of transactions actually processed: 120233
            latency average = 0.332 ms
            initial connection time = 12.345 ms
            tps = 24046.612345 (without initial connection time)
            """
        #expect(PgBench.number(after: "tps = ", in: output) == 24046.612345)
        #expect(PgBench.number(after: "latency average = ", in: output) == 0.332)
        #expect(PgBench.number(after: "tps = ", in: "pgbench: error: connection failed") == nil)
    }

    @Test func quotesConninfoValues() {
        #expect(PgBench.quote("it's a \\path") == #"'it\'s a \\path'"#)
    }
}
