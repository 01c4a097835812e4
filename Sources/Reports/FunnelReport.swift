import Postgres

/// Journeys started in the window that reached each step, and the conversion between steps.
///
/// A journey reaches a step when any of its attempts did: token issued, capture opened, success
/// callback (`onSuccess`; error callbacks are in `sdk-errors`), result fetched; approved is the
/// journey's outcome. A result can arrive by webhook without a callback, so a step may exceed 100%
/// of the one before it.
public struct FunnelReport: Report, Equatable {
    public static let name = ReportName.funnel

    public struct Step: Sendable, Equatable, Encodable {
        public var step: String
        public var journeys: Int
        /// Share of the previous step's journeys; nil for the first step or after zero.
        public var fromPrevious: Double?
        /// Share of started journeys; nil when none started.
        public var fromStart: Double?
    }

    public var steps: [Step]

    public static let stepNames = ["started", "token issued", "capture opened", "callback", "result fetched", "approved"]

    public init(counts: [Int]) {
        steps = zip(Self.stepNames, counts).enumerated().map { index, pair in
            Step(step: pair.0, journeys: pair.1,
                 fromPrevious: index == 0 ? nil : Cell.ratio(pair.1, counts[index - 1]),
                 fromStart: Cell.ratio(pair.1, counts[0]))
        }
    }

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> FunnelReport {
        let row = try await client.query(ReportsStatements.funnel(parameters)).first
        let counts = try (0..<6).map { try row?.decode($0, as: Int.self) ?? 0 }
        return FunnelReport(counts: counts)
    }

    public var sections: [ReportSection] {
        [ReportSection(name: "funnel", title: "Funnel",
                       columns: ["step", .number("journeys"), .number("from previous"), .number("from start")],
                       rows: steps.map { [$0.step, String($0.journeys), Cell.percent($0.fromPrevious), Cell.percent($0.fromStart)] })]
    }
}
