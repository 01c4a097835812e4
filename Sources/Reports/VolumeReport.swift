import Postgres

/// Journeys started in the window by environment, flow and purpose, with how they stand.
public struct VolumeReport: Report, Equatable {
    public static let name = ReportName.volume

    public struct Group: Sendable, Equatable, Encodable {
        public var environment: String
        public var flow: String
        public var purpose: String
        public var journeys: Int
        public var completed: Int
        public var approved: Int
        public var abandoned: Int
        /// Neither completed nor abandoned.
        public var inProgress: Int
    }

    /// Sorted by environment, flow, purpose.
    public var groups: [Group]
    public var total: Int { groups.reduce(0) { $0 + $1.journeys } }

    public static func run(_ parameters: ReportParameters, on client: PostgresClient) async throws -> VolumeReport {
        let groups = try await client.query(ReportsStatements.volume(parameters)).map { row in
            Group(
                environment: try row.decode(0), flow: try row.decode(1), purpose: try row.decode(2), journeys: try row.decode(3),
                completed: try row.decode(4), approved: try row.decode(5), abandoned: try row.decode(6),
                inProgress: try row.decode(7))
        }
        return VolumeReport(groups: groups)
    }

    private enum CodingKeys: String, CodingKey { case groups, total }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(groups, forKey: .groups)
        try container.encode(total, forKey: .total)
    }

    public var sections: [ReportSection] {
        var rows = groups.map {
            [
                $0.environment, $0.flow, $0.purpose, String($0.journeys), String($0.completed), String($0.approved),
                String($0.abandoned), String($0.inProgress),
            ]
        }
        let sum = { (value: KeyPath<Group, Int>) in String(groups.reduce(0) { $0 + $1[keyPath: value] }) }
        rows.append(["total", "", "", sum(\.journeys), sum(\.completed), sum(\.approved), sum(\.abandoned), sum(\.inProgress)])
        return [
            ReportSection(
                name: "volume", title: "Journeys by environment, flow and purpose",
                columns: [
                    "environment", "flow", "purpose", .number("journeys"), .number("completed"), .number("approved"),
                    .number("abandoned"), .number("in progress"),
                ],
                rows: rows)
        ]
    }
}
