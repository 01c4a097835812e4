import Foundation
import Postgres

/// SLA breaches among journeys started in the window, measured at `parameters.now`.
///
/// - A success callback breaches when its attempt had no result `thresholdMinutes` after it:
///   still waiting, or fetched later than that.
/// - A journey is stuck when it is not completed or abandoned and its latest event is older than
///   `stuckMinutes`.
public struct SLAReport: Report, Equatable {
    public static let name = ReportName.sla

    public struct CallbackBreach: Sendable, Equatable, Encodable {
        public var journeyID: String
        public var attempt: Int
        public var environment: String?
        public var status: String
        public var callbackAt: Date
        public var resultFetchedAt: Date?
        /// Minutes from the callback to the result, or to now while still waiting.
        public var minutesWaited: Double
    }

    public struct StuckJourney: Sendable, Equatable, Encodable {
        public var journeyID: String
        public var environment: String?
        public var status: String
        public var lastEventAt: Date
        public var minutesInStatus: Double
    }

    public var thresholdMinutes: Int
    public var stuckMinutes: Int
    /// Oldest callback first.
    public var callbacksWithoutResult: [CallbackBreach]
    /// Longest stuck first.
    public var stuckJourneys: [StuckJourney]

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> SLAReport {
        let callbacks = try await client.query(ReportsStatements.callbacksWithoutResult(parameters)).map { row in
            CallbackBreach(
                journeyID: try row.decode(0), attempt: try row.decode(1), environment: try row.decode(2),
                status: try row.decode(3), callbackAt: try row.decode(4), resultFetchedAt: try row.decode(5),
                minutesWaited: try row.decode(6))
        }
        let stuck = try await client.query(ReportsStatements.stuckJourneys(parameters)).map { row in
            StuckJourney(
                journeyID: try row.decode(0), environment: try row.decode(1), status: try row.decode(2),
                lastEventAt: try row.decode(3), minutesInStatus: try row.decode(4))
        }
        return SLAReport(
            thresholdMinutes: parameters.thresholdMinutes, stuckMinutes: parameters.stuckMinutes,
            callbacksWithoutResult: callbacks, stuckJourneys: stuck)
    }

    public var sections: [ReportSection] {
        let minutes = { (value: Double) in String(format: "%.1f", value) }
        return [
            ReportSection(
                name: "callback-without-result",
                title: "Success callbacks without a result after \(thresholdMinutes) min: \(callbacksWithoutResult.count)",
                columns: [
                    "journey", .number("attempt"), "environment", "status", "callback at", "result at", .number("minutes waited"),
                ],
                rows: callbacksWithoutResult.map {
                    [
                        $0.journeyID, String($0.attempt), $0.environment ?? "", $0.status, ReportDate.format($0.callbackAt),
                        $0.resultFetchedAt.map(ReportDate.format) ?? "still waiting", minutes($0.minutesWaited),
                    ]
                }),
            ReportSection(
                name: "stuck",
                title: "Journeys without progress for more than \(stuckMinutes) min: \(stuckJourneys.count)",
                columns: ["journey", "environment", "status", "last event at", .number("minutes in status")],
                rows: stuckJourneys.map {
                    [
                        $0.journeyID, $0.environment ?? "", $0.status, ReportDate.format($0.lastEventAt),
                        minutes($0.minutesInStatus),
                    ]
                }),
        ]
    }
}
