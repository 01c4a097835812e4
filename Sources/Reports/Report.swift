import Postgres

/// One compliance report: a typed result read with SQL from the journey read models.
///
/// Conformers keep their SQL in one place (their `run`), encode to the JSON the API serves and
/// describe themselves as ``ReportSection``s for table and CSV output.
public protocol Report: Encodable, Sendable {
    static var name: ReportName { get }
    /// Reads the report for `parameters`.
    static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> Self
    /// The result as titled tables of text cells.
    var sections: [ReportSection] { get }
}

extension ReportName {
    /// The type that reads this report.
    public var reportType: any Report.Type {
        switch self {
        case .funnel: FunnelReport.self
        case .sdkErrors: SDKErrorReport.self
        case .expiryRetry: ExpiryRetryReport.self
        case .timeToResult: TimeToResultReport.self
        case .sla: SLAReport.self
        case .subjectHistory: SubjectHistoryReport.self
        case .volume: VolumeReport.self
        }
    }

    /// Reads this report for `parameters` into a document ready to render.
    public func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> ReportDocument {
        ReportDocument(name: self, parameters: parameters, result: try await reportType.run(parameters, on: client))
    }
}
