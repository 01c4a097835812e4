/// Throughput and latency percentiles of one benchmark workload.
public struct LatencyStats: Sendable, Codable, Equatable {
    public let operations: Int
    public let seconds: Double
    public let p50Milliseconds: Double
    public let p99Milliseconds: Double

    /// Summarizes per-operation durations (seconds) measured over `seconds` of wall time.
    public init(durations: [Double], seconds: Double) {
        let sorted = durations.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)
            return sorted[max(0, index)] * 1000
        }
        self.operations = durations.count
        self.seconds = seconds
        self.p50Milliseconds = percentile(0.50)
        self.p99Milliseconds = percentile(0.99)
    }

    public var perSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }
}
