import Postgres

/// The four reports the dashboard shows for one window, read concurrently (each on a connection
/// of its own from the pool), so the page waits for the slowest of them rather than their sum.
public struct DashboardReports: Sendable, Equatable {
    public var funnel: FunnelReport
    public var errors: SDKErrorReport
    public var expiry: ExpiryRetryReport
    public var timing: TimeToResultReport

    public init(funnel: FunnelReport, errors: SDKErrorReport, expiry: ExpiryRetryReport, timing: TimeToResultReport) {
        self.funnel = funnel
        self.errors = errors
        self.expiry = expiry
        self.timing = timing
    }

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> DashboardReports {
        // The slowest first, so it takes a connection before the others queue for the pool.
        async let timing = TimeToResultReport.run(parameters, on: client)
        async let expiry = ExpiryRetryReport.run(parameters, on: client)
        async let errors = SDKErrorReport.run(parameters, on: client)
        async let funnel = FunnelReport.run(parameters, on: client)
        return DashboardReports(
            funnel: try await funnel, errors: try await errors, expiry: try await expiry,
            timing: try await timing)
    }
}
