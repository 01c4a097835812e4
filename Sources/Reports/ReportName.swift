/// The compliance reports, by the name used on the command line and in `/v1/reports/{name}`.
public enum ReportName: String, Sendable, CaseIterable, Codable {
    case funnel
    case sdkErrors = "sdk-errors"
    case expiryRetry = "expiry-retry"
    case timeToResult = "time-to-result"
    case sla
    case subjectHistory = "subject-history"
    case volume

    /// One line for help texts and the API description.
    public var summary: String {
        switch self {
        case .funnel: "Journeys reaching each step: started, token issued, capture opened, callback, result fetched, approved."
        case .sdkErrors: "SDK error codes: count, share, meaning and recommended action from the catalog."
        case .expiryRetry: "Share of attempts expired, retries per journey, retry success rate, per day."
        case .timeToResult: "p50/p90/p99 seconds from start and from callback to the result, and a histogram."
        case .sla: "Success callbacks without a result after N minutes; journeys stuck in a non-terminal state."
        case .subjectHistory: "Every journey of one subject reference (never a raw document number)."
        case .volume: "Journeys by environment, flow and purpose, with their outcomes."
        }
    }

    /// Every name, comma-separated, for messages that list the known ones.
    public static var known: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Parses a name; the error lists the known ones.
    public static func parse(_ text: String) throws(ReportError) -> ReportName {
        guard let name = ReportName(rawValue: text) else {
            throw ReportError(
                .unknownReport, parameter: "name",
                "unknown report '\(text.prefix(40))'; known: \(known)")
        }
        return name
    }
}
