import Postgres

/// Expiry and retries of journeys started in the window, overall and per day (UTC).
///
/// An attempt counts as expired when it failed with `tokenExpired` (timer or SDK 73305) or
/// `processExpired`. A retry is an attempt after the first; the retry success rate is the share of
/// journeys with at least one retry that completed approved.
public struct ExpiryRetryReport: Report, Equatable {
    public static let name = ReportName.expiryRetry

    public struct Day: Sendable, Equatable, Encodable {
        /// `YYYY-MM-DD` (UTC) of the journeys' start.
        public var day: String
        public var journeys: Int
        public var attempts: Int
        public var expiredAttempts: Int
        public var retriedJourneys: Int
        public var expiredShare: Double?
        public var retriedShare: Double?
    }

    public var journeys: Int
    public var attempts: Int
    public var expiredAttempts: Int
    /// Share of attempts that expired; nil without attempts.
    public var expiredShare: Double?
    /// Attempts after the first, summed over journeys.
    public var retries: Int
    public var retriedJourneys: Int
    /// Retries per journey started; nil without journeys.
    public var retriesPerJourney: Double?
    /// Most retries of one journey.
    public var maxRetries: Int
    /// Journeys with a retry that completed approved.
    public var retriedApproved: Int
    /// `retriedApproved / retriedJourneys`; nil without retried journeys.
    public var retrySuccessRate: Double?
    public var days: [Day]

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> ExpiryRetryReport {
        let rows = try await client.query(ReportsStatements.expiryRetry(parameters))
        var report = ExpiryRetryReport(
            journeys: 0, attempts: 0, expiredAttempts: 0, retries: 0, retriedJourneys: 0,
            maxRetries: 0, retriedApproved: 0, days: [])
        for row in rows {
            let (journeys, attempts) = (try row.decode(1, as: Int.self), try row.decode(2, as: Int.self))
            let (expired, retried) = (try row.decode(3, as: Int.self), try row.decode(4, as: Int.self))
            let day = Day(
                day: try row.decode(0, as: String.self), journeys: journeys, attempts: attempts, expiredAttempts: expired,
                retriedJourneys: retried, expiredShare: Cell.ratio(expired, attempts),
                retriedShare: Cell.ratio(retried, journeys))
            report.days.append(day)
            report.journeys += day.journeys
            report.attempts += day.attempts
            report.expiredAttempts += day.expiredAttempts
            report.retriedJourneys += day.retriedJourneys
            report.retries += try row.decode(5, as: Int.self)
            report.maxRetries = max(report.maxRetries, try row.decode(6, as: Int.self))
            report.retriedApproved += try row.decode(7, as: Int.self)
        }
        report.expiredShare = Cell.ratio(report.expiredAttempts, report.attempts)
        report.retriesPerJourney = Cell.ratio(report.retries, report.journeys)
        report.retrySuccessRate = Cell.ratio(report.retriedApproved, report.retriedJourneys)
        return report
    }

    init(
        journeys: Int, attempts: Int, expiredAttempts: Int, retries: Int, retriedJourneys: Int, maxRetries: Int,
        retriedApproved: Int, days: [Day]
    ) {
        self.journeys = journeys
        self.attempts = attempts
        self.expiredAttempts = expiredAttempts
        self.retries = retries
        self.retriedJourneys = retriedJourneys
        self.maxRetries = maxRetries
        self.retriedApproved = retriedApproved
        self.days = days
    }

    public var sections: [ReportSection] {
        let summary: [[String]] = [
            ["journeys", String(journeys)], ["attempts", String(attempts)],
            ["expired attempts", String(expiredAttempts)], ["expired share", Cell.percent(expiredShare)],
            ["retries", String(retries)], ["journeys retried", String(retriedJourneys)],
            ["retries per journey", retriesPerJourney.map { String(format: "%.2f", $0) } ?? "-"],
            ["max retries of a journey", String(maxRetries)],
            ["retried and approved", String(retriedApproved)], ["retry success rate", Cell.percent(retrySuccessRate)],
        ]
        return [
            ReportSection(name: "summary", title: "Expiry and retry", columns: ["measure", .number("value")], rows: summary),
            ReportSection(
                name: "daily", title: "Per day (UTC)",
                columns: [
                    "day", .number("journeys"), .number("attempts"), .number("expired"), .number("expired share"),
                    .number("retried"), .number("retried share"),
                ],
                rows: days.map {
                    [
                        $0.day, String($0.journeys), String($0.attempts), String($0.expiredAttempts),
                        Cell.percent($0.expiredShare), String($0.retriedJourneys), Cell.percent($0.retriedShare),
                    ]
                }),
        ]
    }
}
