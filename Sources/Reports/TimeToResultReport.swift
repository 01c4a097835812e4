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
        var counts = Array(repeating: 0, count: labels.count)
        for row in try await client.query(ReportsStatements.timeToResultHistogram(parameters, bounds: bounds)) {
            let bucket = try row.decode(0, as: Int.self)
            if bucket >= 0, bucket < counts.count { counts[bucket] = try row.decode(1, as: Int.self) }
        }
        let (fromStart, fromCallback) =
            parameters.source == .rollups
            ? try await client.transaction(isolation: ResultPercentiles.isolation) {
                try ResultPercentiles.read(parameters, on: $0)
            }
            : try await readModelPercentiles(parameters, on: client)
        var report = TimeToResultReport(fromStart: fromStart, fromCallback: fromCallback, histogram: [])
        report.histogram = labels.indices.map { index in
            Bucket(
                label: labels[index], lowerSeconds: index == 0 ? 0 : bounds[index - 1],
                upperSeconds: index < bounds.count ? bounds[index] : nil, journeys: counts[index])
        }
        return report
    }

    /// `percentile_cont` over every journey of the window.
    private static func readModelPercentiles(
        _ parameters: ReportParameters,
        on client: PostgresClient
    ) async throws -> (Percentiles, Percentiles) {
        guard let row = try await client.query(ReportsStatements.timeToResultPercentiles(parameters)).first else {
            return (Percentiles(samples: 0), Percentiles(samples: 0))
        }
        return (
            Percentiles(
                samples: try row.decode(0, as: Int.self), p50: try row.decode(1), p90: try row.decode(2), p99: try row.decode(3)),
            Percentiles(
                samples: try row.decode(4, as: Int.self), p50: try row.decode(5), p90: try row.decode(6), p99: try row.decode(7))
        )
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
            ReportSection(
                name: "percentiles", title: "Time to result (seconds)",
                columns: ["from", .number("journeys"), .number("p50"), .number("p90"), .number("p99")],
                rows: [line("start", fromStart), line("callback", fromCallback)]),
            ReportSection(
                name: "histogram", title: "Time from start to result",
                columns: ["bucket", .number("journeys")], rows: histogram.map { [$0.label, String($0.journeys)] }),
        ]
    }
}
