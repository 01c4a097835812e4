import Foundation

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
