import Postgres

/// Journeys started in the window that reached each step, and the conversion between steps.
///
/// A journey reaches a step when any of its attempts did: token issued, capture opened, success
/// callback (`onSuccess`; error callbacks are in `sdk-errors`), result fetched; approved is the
/// journey's outcome. A result can arrive by webhook without a callback, so a step may exceed 100%
/// of the one before it. Drop-offs are the journeys where the app reported that a capture ended
/// without a result: the user closed it, or its session timed out (a journey may show both).
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

    /// Journeys that lost a capture to a drop-off the app reported.
    public struct DropOff: Sendable, Equatable, Encodable {
        public var dropOff: String
        public var journeys: Int
        /// Share of the journeys whose capture opened; nil when none did.
        public var fromCaptureOpened: Double?
    }

    public var steps: [Step]
    public var dropOffs: [DropOff]

    public static let stepNames = ["started", "token issued", "capture opened", "callback", "result fetched", "approved"]
    public static let dropOffNames = ["closed by user", "session timed out"]

    /// `counts` per step of ``stepNames``, then per drop-off of ``dropOffNames`` (missing ones are 0).
    public init(counts: [Int]) {
        let steps = Array(counts.prefix(Self.stepNames.count))
        self.steps = zip(Self.stepNames, steps).enumerated().map { index, pair in
            Step(
                step: pair.0, journeys: pair.1,
                fromPrevious: index == 0 ? nil : Cell.ratio(pair.1, steps[index - 1]),
                fromStart: Cell.ratio(pair.1, steps[0]))
        }
        let opened = steps.count > 2 ? steps[2] : 0
        let drops = Array(counts.dropFirst(Self.stepNames.count)) + Array(repeating: 0, count: Self.dropOffNames.count)
        dropOffs = zip(Self.dropOffNames, drops).map {
            DropOff(dropOff: $0.0, journeys: $0.1, fromCaptureOpened: Cell.ratio($0.1, opened))
        }
    }

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> FunnelReport {
        let row = try await client.query(ReportsStatements.funnel(parameters)).first
        let counts = try (0..<(stepNames.count + dropOffNames.count)).map { try row?.decode($0, as: Int.self) ?? 0 }
        return FunnelReport(counts: counts)
    }

    public var sections: [ReportSection] {
        [
            ReportSection(
                name: "funnel", title: "Funnel",
                columns: ["step", .number("journeys"), .number("from previous"), .number("from start")],
                rows: steps.map { [$0.step, String($0.journeys), Cell.percent($0.fromPrevious), Cell.percent($0.fromStart)] }),
            ReportSection(
                name: "drop-offs", title: "Drop-offs",
                columns: ["drop-off", .number("journeys"), .number("of capture opened")],
                rows: dropOffs.map { [$0.dropOff, String($0.journeys), Cell.percent($0.fromCaptureOpened)] }),
        ]
    }
}
