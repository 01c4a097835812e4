import Foundation
import Postgres

/// Every journey of one subject reference started in the window, oldest first.
///
/// Looks up the pseudonymous `subject_reference` only; the read models hold no document numbers.
public struct SubjectHistoryReport: Report, Equatable {
    public static let name = ReportName.subjectHistory

    public struct Journey: Sendable, Equatable, Encodable {
        public var journeyID: String
        public var startedAt: Date
        public var environment: String?
        public var flow: String?
        public var purpose: String?
        public var clientReference: String?
        public var status: String
        public var outcome: String?
        public var attempts: Int
        public var lastErrorCode: Int?
        /// When it completed or was abandoned.
        public var endedAt: Date?
    }

    public var subject: String
    public var journeys: [Journey]

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> SubjectHistoryReport {
        guard let subject = parameters.subject?.rawValue else {
            throw ReportError(
                .missingParameter, parameter: ReportParameters.Key.subject, "subject-history needs subject (a subject reference)")
        }
        let journeys = try await client.query(ReportsStatements.subjectHistory(subject, parameters)).map { row in
            Journey(
                journeyID: try row.decode(0), startedAt: try row.decode(1), environment: try row.decode(2),
                flow: try row.decode(3),
                purpose: try row.decode(4), clientReference: try row.decode(5), status: try row.decode(6),
                outcome: try row.decode(7),
                attempts: try row.decode(8), lastErrorCode: try row.decode(9), endedAt: try row.decode(10))
        }
        return SubjectHistoryReport(subject: subject, journeys: journeys)
    }

    public var sections: [ReportSection] {
        [
            ReportSection(
                name: "journeys", title: "Journeys of subject \(subject): \(journeys.count)",
                columns: [
                    "journey", "started at", "environment", "flow", "purpose", "client reference", "status", "outcome",
                    .number("attempts"), .number("last error"), "ended at",
                ],
                rows: journeys.map {
                    [
                        $0.journeyID, ReportDate.format($0.startedAt), $0.environment ?? "", $0.flow ?? "", $0.purpose ?? "",
                        $0.clientReference ?? "", $0.status, $0.outcome ?? "", String($0.attempts),
                        $0.lastErrorCode.map(String.init) ?? "", $0.endedAt.map(ReportDate.format) ?? "",
                    ]
                })
        ]
    }
}
