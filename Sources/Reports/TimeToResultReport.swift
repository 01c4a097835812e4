import Postgres

/// Seconds from a journey's start, and from its success callback, to the result of its final
/// attempt (Get Process answered), for journeys started in the window that have a result.
public struct TimeToResultReport: Report, Equatable {
    public static let name = ReportName.timeToResult

    /// Continuous percentiles (`percentile_cont`), nil without samples.
    public struct Percentiles: Sendable, Equatable, Encodable {
        public var samples: Int
        public var p50: Double?
        public var p90: Double?
        public var p99: Double?
    }

    /// Journeys whose time from start fell in `[lowerSeconds, upperSeconds)`; the last is open.
    public struct Bucket: Sendable, Equatable, Encodable {
        public var label: String
        public var lowerSeconds: Double
        public var upperSeconds: Double?
        public var journeys: Int
    }

    public var fromStart: Percentiles
    public var fromCallback: Percentiles
    public var histogram: [Bucket]

    /// Histogram bounds in seconds: <10 s, 10-30 s, 30 s-1 min, 1-2 min, 2-5 min, 5-10 min, 10-30 min, 30 min+.
    public static let bounds: [Double] = [10, 30, 60, 120, 300, 600, 1800]
    static let labels = ["<10s", "10-30s", "30s-1m", "1-2m", "2-5m", "5-10m", "10-30m", "30m+"]

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> TimeToResultReport {
        let rows = try await client.query(ReportsStatements.timeToResult(parameters, bounds: bounds))
        var counts = Array(repeating: 0, count: labels.count)
        var report = TimeToResultReport(fromStart: Percentiles(samples: 0), fromCallback: Percentiles(samples: 0), histogram: [])
        for row in rows {
            let bucket = try row.decode(0, as: Int.self)
            if bucket < 0 {
                report.fromStart = Percentiles(samples: try row.decode(1, as: Int.self), p50: try row.decode(2), p90: try row.decode(3),
                                               p99: try row.decode(4))
                report.fromCallback = Percentiles(samples: try row.decode(5, as: Int.self), p50: try row.decode(6),
                                                  p90: try row.decode(7), p99: try row.decode(8))
            } else if bucket < counts.count {
                counts[bucket] = try row.decode(1, as: Int.self)
            }
        }
        report.histogram = labels.indices.map { index in
            Bucket(label: labels[index], lowerSeconds: index == 0 ? 0 : bounds[index - 1],
                   upperSeconds: index < bounds.count ? bounds[index] : nil, journeys: counts[index])
        }
        return report
    }

    init(fromStart: Percentiles, fromCallback: Percentiles, histogram: [Bucket]) {
        self.fromStart = fromStart
        self.fromCallback = fromCallback
        self.histogram = histogram
    }

    public var sections: [ReportSection] {
        let line = { (name: String, p: Percentiles) in
            [name, String(p.samples), Cell.seconds(p.p50), Cell.seconds(p.p90), Cell.seconds(p.p99)]
        }
        return [
            ReportSection(name: "percentiles", title: "Time to result (seconds)",
                          columns: ["from", .number("journeys"), .number("p50"), .number("p90"), .number("p99")],
                          rows: [line("start", fromStart), line("callback", fromCallback)]),
            ReportSection(name: "histogram", title: "Time from start to result",
                          columns: ["bucket", .number("journeys")], rows: histogram.map { [$0.label, String($0.journeys)] }),
        ]
    }
}
