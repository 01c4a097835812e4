import Foundation

/// A report's result with what it covers: the JSON body of `GET /v1/reports/{name}` and of
/// `journeys report NAME --format json`.
public struct ReportDocument: Sendable, Encodable {
    public var name: ReportName
    public var parameters: ReportParameters
    public var result: any Report

    public init(name: ReportName, parameters: ReportParameters, result: any Report) {
        self.name = name
        self.parameters = parameters
        self.result = result
    }

    /// The result's sections (table and CSV output).
    public var sections: [ReportSection] { result.sections }

    private enum CodingKeys: String, CodingKey {
        case report, from, to, environment, generatedAt, result
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name.rawValue, forKey: .report)
        try container.encode(ReportDate.format(parameters.from), forKey: .from)
        try container.encode(ReportDate.format(parameters.to), forKey: .to)
        try container.encode(parameters.environment?.rawValue, forKey: .environment)
        try container.encode(ReportDate.format(parameters.now), forKey: .generatedAt)
        try result.encode(to: container.superEncoder(forKey: .result))
    }

    /// Pretty, key-sorted JSON with RFC 3339 dates.
    public func json() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// The encoder of report JSON: sorted keys, ISO 8601 dates with milliseconds.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ReportDate.format(date))
        }
        return encoder
    }
}
