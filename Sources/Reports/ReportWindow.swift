import Postgres

extension PostgresQuery.StringInterpolation {
    /// `alias.started_at` in the window and, when one is given, `alias.environment` equal to it.
    mutating func appendInterpolation(window parameters: ReportParameters, on alias: String) {
        appendLiteral("\(alias).started_at >= ")
        appendInterpolation(parameters.from)
        appendLiteral("::timestamptz AND \(alias).started_at < ")
        appendInterpolation(parameters.to)
        appendLiteral("::timestamptz AND (")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral("::text IS NULL OR \(alias).environment = ")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral(")")
    }
}

/// Number formatting shared by the reports' sections.
enum Cell {
    /// A ratio as a percentage with one decimal (`37.5%`), or `-` when undefined.
    static func percent(_ ratio: Double?) -> String {
        guard let ratio else { return "-" }
        return String(format: "%.1f%%", ratio * 100)
    }

    /// Seconds with one decimal, or `-`.
    static func seconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        return String(format: "%.1f", value)
    }

    /// `part / whole`, nil when `whole` is zero.
    static func ratio(_ part: Int, _ whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) / Double(whole)
    }
}
