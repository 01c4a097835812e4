import Foundation
import JourneyDomain
import Timestamps

extension ReportParameters {
    /// The parameter names shared by the CLI (`--name`) and the API (`?name=`).
    public enum Key {
        public static let from = "from", to = "to", environment = "environment", subject = "subject"
        public static let thresholdMinutes = "threshold-minutes", stuckMinutes = "stuck-minutes"
    }

    /// Parses raw values (by ``Key``) for `report`; the error names the parameter at fault.
    ///
    /// `from` and `to` are required; `subject` is required by `subject-history` and must be a
    /// subject reference, never a document number.
    public static func parse(_ values: [String: String], for report: ReportName, now: Date) throws(ReportError)
        -> ReportParameters
    {
        let from = try date(values, Key.from, endOfDay: false)
        let to = try date(values, Key.to, endOfDay: true)
        guard from <= to else {
            throw ReportError(
                .invalidRange, parameter: Key.from, "from (\(values[Key.from] ?? "")) is after to (\(values[Key.to] ?? ""))")
        }
        var parameters = ReportParameters(from: from, to: to, now: now)
        if let text = values[Key.environment], !text.isEmpty {
            guard let environment = Environment(rawValue: text.uppercased()) else {
                let allowed = Environment.allCases.map(\.rawValue).joined(separator: ", ")
                throw ReportError(
                    .invalidValue, parameter: Key.environment,
                    "environment must be one of: \(allowed); got '\(text.prefix(40))'")
            }
            parameters.environment = environment
        }
        parameters.thresholdMinutes = try minutes(values, Key.thresholdMinutes, default: 10)
        parameters.stuckMinutes = try minutes(values, Key.stuckMinutes, default: 60)
        if report == .subjectHistory {
            guard let subject = values[Key.subject], !subject.isEmpty else {
                throw ReportError(
                    .missingParameter, parameter: Key.subject, "subject-history needs subject (a subject reference)")
            }
            parameters.subject = try subjectReference(subject)
        }
        return parameters
    }

    static func date(_ values: [String: String], _ key: String, endOfDay: Bool) throws(ReportError) -> Date {
        guard let text = values[key], !text.isEmpty else {
            throw ReportError(
                .missingParameter, parameter: key,
                "\(key) is required: an ISO 8601 date (2026-05-01) or timestamp (2026-05-01T12:30:00Z)")
        }
        guard let parsed = ISO8601Date.parse(text) else {
            throw ReportError(
                .invalidDate, parameter: key,
                "\(key) must be an ISO 8601 date (2026-05-01) or timestamp (2026-05-01T12:30:00Z); got '\(text.prefix(40))'")
        }
        return endOfDay && parsed.isDateOnly ? parsed.date.addingTimeInterval(86_400) : parsed.date
    }

    static func minutes(_ values: [String: String], _ key: String, default value: Int) throws(ReportError) -> Int {
        guard let text = values[key], !text.isEmpty else { return value }
        guard let minutes = Int(text), (1...525_600).contains(minutes) else {
            throw ReportError(
                .invalidValue, parameter: key,
                "\(key) must be a whole number of minutes from 1 to 525600; got '\(text.prefix(40))'")
        }
        return minutes
    }

    /// A subject reference; text shaped like a CPF or CNPJ (11 or 14 digits, with or without
    /// punctuation) is refused without being echoed.
    static func subjectReference(_ text: String) throws(ReportError) -> SubjectReference {
        let digits = text.filter(\.isNumber)
        let punctuationOnly = text.allSatisfy { $0.isNumber || $0 == "." || $0 == "-" || $0 == "/" || $0 == " " }
        if punctuationOnly, digits.count == 11 || digits.count == 14 {
            throw ReportError(
                .documentNumberNotAllowed, parameter: Key.subject,
                "subject must be a subject reference (the pseudonymous 64-hex-character reference), not a document number")
        }
        guard text.count <= 200, text.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ReportError(
                .invalidValue, parameter: Key.subject,
                "subject must be a subject reference (printable ASCII, at most 200 characters)")
        }
        return SubjectReference(text)
    }
}
