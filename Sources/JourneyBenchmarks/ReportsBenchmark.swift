import Foundation
import JourneyApp
import JourneyDomain
import Postgres
import Projections
import Reports

/// `journeys-bench reports`: N journeys over two years written straight into the read models
/// (bulk `INSERT ... SELECT`, then the daily rollups filled as a rebuild fills them), then every
/// report and the dashboard timed over a 30-day and a 1-year window, each answer checked against
/// the same report read from every journey of the window (``ReportSource/readModels``).
public struct ReportsBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Journeys to generate. Default 2,000,000.
        public var journeys = 2_000_000
        /// Timed runs per report and window. Default 10.
        public var runs = 10
        public init() {}
    }

    /// One report over one window.
    public struct Timing: Sendable, Codable, Equatable {
        public let report: String
        public let window: String
        public let journeys_in_window: Int
        public let p50_ms: Double
        public let p95_ms: Double
        /// The answer equals the read-model computation.
        public let exact: Bool
    }

    public struct Result: Sendable, Codable, Equatable {
        public let journeys: Int
        public let attempts: Int
        public let load_seconds: Double
        public let load_journeys_per_s: Double
        public let runs: Int
        public let timings: [Timing]
        public let max_p95_ms: Double
        public let all_exact: Bool
    }

    public let client: PostgresClient
    public let configuration: Configuration
    /// The end of the generated history (the reports' `now`).
    let now: Date

    public init(client: PostgresClient, configuration: Configuration = Configuration(), now: Date = Date()) {
        self.client = client
        self.configuration = configuration
        self.now = now
    }

    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let existing = try await client.query(ReportsBenchmarkStatements.stateCount).first!.decode(0, as: Int.self)
        guard existing == 0 else {
            throw AppError(
                .invalidInput,
                "bench reports needs empty read models (journey_state holds \(existing) rows): "
                    + "unset DATABASE_URL to use the embedded cluster's journeys_bench database")
        }
        let clock = ContinuousClock()
        let loadTime = try await clock.measure { try await load(progress: progress) }
        let attempts = try await client.query(BenchmarkStatements.readModelRowCounts).first!.decode(1, as: Int.self)
        let subject = try await client.query(ReportsBenchmarkStatements.someSubject).first?.decode(0, as: String.self)
        var timings: [Timing] = []
        for (label, days) in [("30d", 30.0), ("1y", 365.0)] {
            var parameters = ReportParameters(from: now.addingTimeInterval(-days * 86_400), to: now, now: now)
            parameters.subject = subject.map(SubjectReference.init)
            let inWindow = try await FunnelReport.run(parameters, on: client).steps.first?.journeys ?? 0
            for name in ReportName.allCases {
                progress("\(name.rawValue) over \(label)")
                timings.append(
                    try await time(
                        name.rawValue, label, inWindow, parameters,
                        exact: try await compare(name, parameters)
                    ) { parameters in
                        _ = try await name.run(parameters, on: client)
                    })
            }
            progress("dashboard over \(label)")
            // The dashboard's four reports, read as its page reads them (concurrently, on this
            // benchmark's pool of 2 connections); each is checked above, and the set is compared too.
            let dashboardExact =
                try await DashboardReports.run(parameters, on: client)
                == DashboardReports(
                    funnel: try await FunnelReport.run(parameters, on: client),
                    errors: try await SDKErrorReport.run(parameters, on: client),
                    expiry: try await ExpiryRetryReport.run(parameters, on: client),
                    timing: try await TimeToResultReport.run(parameters, on: client))
            timings.append(
                try await time("dashboard", label, inWindow, parameters, exact: dashboardExact) { parameters in
                    _ = try await DashboardReports.run(parameters, on: client)
                })
        }
        return Result(
            journeys: configuration.journeys, attempts: attempts, load_seconds: loadTime.seconds,
            load_journeys_per_s: Double(configuration.journeys) / max(loadTime.seconds, 1e-9), runs: configuration.runs,
            timings: timings, max_p95_ms: timings.map(\.p95_ms).max() ?? 0, all_exact: timings.allSatisfy(\.exact))
    }

    /// Times `body` `runs` times after one warm-up.
    private func time(
        _ report: String, _ window: String, _ inWindow: Int, _ parameters: ReportParameters, exact: Bool,
        _ body: (ReportParameters) async throws -> Void
    ) async throws -> Timing {
        try await body(parameters)
        var durations: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<configuration.runs {
            durations.append(try await clock.measure { try await body(parameters) }.seconds)
        }
        durations.sort()
        func percentile(_ p: Double) -> Double {
            durations[max(0, min(durations.count - 1, Int((p * Double(durations.count)).rounded(.up)) - 1))] * 1000
        }
        return Timing(
            report: report, window: window, journeys_in_window: inWindow, p50_ms: percentile(0.5),
            p95_ms: percentile(0.95), exact: exact)
    }

    /// The report from the rollups equals the report from every journey of the window.
    private func compare(_ name: ReportName, _ parameters: ReportParameters) async throws -> Bool {
        var direct = parameters
        direct.source = .readModels
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let a = try encoder.encode(try await name.run(parameters, on: client).result)
        let b = try encoder.encode(try await name.run(direct, on: client).result)
        return a == b
    }

    /// Writes the journeys and their attempts in chunks, fills the rollups, analyzes.
    private func load(progress: @Sendable (String) -> Void) async throws {
        let count = configuration.journeys
        let span = 730.0 * 86_400
        let start = now.addingTimeInterval(-span)
        let chunk = 100_000
        var first = 0
        while first < count {
            let last = min(count, first + chunk) - 1
            try await client.transaction { [first] connection in
                try connection.execute(unsafeSQL: ReportsBenchmarkStatements.asynchronousCommit)
                _ = try connection.query(
                    ReportsBenchmarkStatements.insertStates(
                        first: first, last: last, count: count,
                        start: start, spanSeconds: span))
                _ = try connection.query(ReportsBenchmarkStatements.insertAttempts(first: first, last: last))
            }
            first = last + 1
            progress("loaded \(first) of \(count) journeys")
        }
        progress("filling the daily rollups")
        try await client.withConnection { connection in
            try DailyRollup.fill(.live, on: connection)
            try connection.execute(unsafeSQL: ReportsBenchmarkStatements.analyze)
        }
    }
}
