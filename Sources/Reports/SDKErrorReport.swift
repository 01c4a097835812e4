import JourneyDomain
import Postgres

/// SDK error codes reported by attempts of journeys started in the window (the first callback
/// of each attempt, or the code its failure recorded), with the catalog's meaning and action.
///
/// Every code is counted, those the SDK Lite page does not list included (the full SDK's codes
/// and codes listed nowhere); each row says where its code is documented.
public struct SDKErrorReport: Report, Equatable {
    public static let name = ReportName.sdkErrors

    public struct Entry: Sendable, Equatable, Encodable {
        public var code: Int
        public var count: Int
        /// Share of all SDK errors in the report.
        public var share: Double
        public var meaning: String
        public var category: String
        public var recommendedAction: String
        public var retryable: Bool
        /// False for codes the SDK Lite page does not list.
        public var documented: Bool
        /// Where the code is documented: `sdkLitePage`, `fullSDK` or `unlisted`.
        public var source: String
    }

    /// Attempts in the window (the denominator of `errorRate`).
    public var attempts: Int
    public var errors: Int
    /// Errors whose code the SDK Lite page does not list.
    public var offPageErrors: Int
    /// Share of attempts that ended in an SDK error; nil without attempts.
    public var errorRate: Double?
    /// Most frequent first; ties by code.
    public var codes: [Entry]

    public init(attempts: Int, counts: [(code: Int, count: Int)], catalog: SDKErrorCatalog = .standard) {
        let errors = counts.reduce(0) { $0 + $1.count }
        self.attempts = attempts
        self.errors = errors
        self.errorRate = Cell.ratio(errors, attempts)
        self.codes = counts.map { code, count in
            let entry = catalog.entry(for: SDKErrorCode(rawValue: code))
            return Entry(
                code: code, count: count, share: Double(count) / Double(max(errors, 1)), meaning: entry.meaning,
                category: entry.category.rawValue, recommendedAction: entry.recommendedAction,
                retryable: entry.retryable, documented: entry.isDocumented, source: entry.source.rawValue)
        }
        self.offPageErrors = codes.filter { !$0.documented }.reduce(0) { $0 + $1.count }
    }

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> SDKErrorReport {
        let rows = try await client.query(ReportsStatements.sdkErrors(parameters))
        var attempts = 0
        var counts: [(code: Int, count: Int)] = []
        for row in rows {
            attempts = try row.decode(2, as: Int.self)
            guard let code = try row.decode(0, as: Int?.self) else { continue }
            counts.append((code, try row.decode(1, as: Int.self)))
        }
        return SDKErrorReport(attempts: attempts, counts: counts)
    }

    public var sections: [ReportSection] {
        let offPage = offPageErrors == 0 ? "" : "; \(offPageErrors) with codes not on the SDK Lite page"
        return [
            ReportSection(
                name: "sdk-errors", title: "SDK errors: \(errors) in \(attempts) attempts (\(Cell.percent(errorRate)))\(offPage)",
                columns: [
                    .number("code"), .number("count"), .number("share"), "category", "retryable", "source",
                    "meaning", "recommended action",
                ],
                rows: codes.map {
                    [
                        String($0.code), String($0.count), Cell.percent($0.share), $0.category, $0.retryable ? "yes" : "no",
                        SDKErrorSource(rawValue: $0.source)?.label ?? $0.source, $0.meaning, $0.recommendedAction,
                    ]
                })
        ]
    }
}
