import AccessControl
import CLI
import Foundation
import JourneyApp
import Reports

/// `journeys report NAME --from --to [--environment] [--format table|csv|json]`: a compliance report.
struct ReportCommand: Command {
    /// How the report is printed.
    enum Format: String, CaseIterable {
        case table, csv, json
    }

    static let configuration = CommandConfiguration(
        name: "report", summary: "Print a compliance report over the journey read models.",
        discussion: ReportName.allCases.map {
            "\($0.rawValue + String(repeating: " ", count: 17 - $0.rawValue.count))\($0.summary)"
        }.joined(separator: "\n") + "\n\n" + """
            The window holds journeys started from --from (inclusive) to --to (exclusive; a bare date \
            means the end of that day, UTC). Dates are ISO 8601: 2026-05-01 or 2026-05-01T12:30:00Z. \
            CSV prints each section as its own block (a `section` column, then the header), blocks \
            separated by an empty line. With REPORTS_DATABASE_URL (a hot standby) only the standby is used, \
            so reports answer while the primary is down.
            """,
        options: [
            .required("from", valueName: "DATE", help: "Start of the window (ISO 8601 date or timestamp)."),
            .required("to", valueName: "DATE", help: "End of the window; a bare date includes that day."),
            .optional("environment", valueName: "ENV", help: "Only journeys in UAT or PROD."),
            .optional("format", valueName: "F", help: "table, csv or json.", default: "table"),
            .optional("subject", valueName: "REF", help: "subject-history: the subject reference (never a document number)."),
            .optional(
                "threshold-minutes", valueName: "N", help: "sla: minutes a success callback may wait for its result.",
                default: "10"),
            .optional(
                "stuck-minutes", valueName: "N", help: "sla: minutes without progress before a journey counts as stuck.",
                default: "60"),
            .optional("tenant", valueName: "NAME", help: "Only journeys of this tenant (default: every tenant)."),
        ],
        positionals: [PositionalSpec("name", help: "The report: \(ReportName.known).")])

    let name: ReportName
    let format: Format
    let values: [String: String]
    let tenant: String?

    init(arguments: ParsedArguments) throws {
        do {
            name = try ReportName.parse(try arguments.string("name"))
        } catch let error as ReportError {
            throw AppError(.invalidInput, error.message)
        }
        let formatText = try arguments.string("format")
        guard let format = Format(rawValue: formatText) else {
            throw AppError(.invalidInput, "unknown format '\(formatText.prefix(40))'; known: table, csv, json")
        }
        self.format = format
        var values: [String: String] = [:]
        for key in [
            ReportParameters.Key.from, ReportParameters.Key.to, ReportParameters.Key.environment,
            ReportParameters.Key.subject, ReportParameters.Key.thresholdMinutes, ReportParameters.Key.stuckMinutes,
        ] {
            values[key] = try arguments.optionalString(key)
        }
        self.values = values
        do {
            tenant = try arguments.optionalString("tenant").map(Tenant.validName)
        } catch let error as AccessError {
            throw AppError(.invalidInput, "--tenant: \(error.message)")
        }
        _ = try parameters(now: Date())
    }

    /// The parameters, checked before any database work; messages use the option names.
    func parameters(now: Date) throws -> ReportParameters {
        do {
            var parameters = try ReportParameters.parse(values, for: name, now: now)
            parameters.tenant = tenant
            return parameters
        } catch {
            throw AppError(.invalidInput, "--\(error.parameter): \(error.message)")
        }
    }

    func run() async throws {
        let parameters = try parameters(now: Date())
        // With REPORTS_DATABASE_URL only the standby is used: reports answer while the primary is down.
        let (reports, close) = try await Database.openReports(AppEnvironment.current.database)
        defer { close() }
        let document = try await name.run(parameters, on: reports)
        AppEnvironment.current.writeLine(try Self.render(document, as: format))
    }

    /// The document as a text table, CSV or JSON (without a trailing newline).
    static func render(_ document: ReportDocument, as format: Format) throws -> String {
        switch format {
        case .json:
            return String(decoding: try document.json(), as: UTF8.self)
        case .table:
            let header =
                "\(document.name.rawValue): journeys started \(ReportDate.format(document.parameters.from)) "
                + "to \(ReportDate.format(document.parameters.to))"
                + (document.parameters.environment.map { " in \($0.rawValue)" } ?? "")
            let blocks = document.sections.map { section in
                var table = TextTable(
                    columns: section.columns.map { TextTable.Column($0.title, alignment: $0.isNumeric ? .right : .left) })
                section.rows.forEach { table.append($0) }
                return "\(section.title)\n\(table.render())"
            }
            return ([header] + blocks).joined(separator: "\n").trimmingCharacters(in: .newlines)
        case .csv:
            return document.sections.map { section in
                var table = TextTable(columns: [TextTable.Column("section")] + section.columns.map { TextTable.Column($0.title) })
                section.rows.forEach { table.append([section.name] + $0) }
                return table.csv()
            }.joined(separator: "\n").trimmingCharacters(in: .newlines)
        }
    }
}
