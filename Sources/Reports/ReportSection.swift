/// A titled table of text cells: how a report shows itself as a text table or CSV.
public struct ReportSection: Sendable, Equatable {
    /// A column's title and whether its cells are numbers (right-aligned in tables).
    public struct Column: Sendable, Equatable, ExpressibleByStringLiteral {
        public var title: String
        public var isNumeric: Bool
        public init(_ title: String, numeric: Bool = false) {
            self.title = title
            self.isNumeric = numeric
        }
        public init(stringLiteral title: String) { self.init(title) }
        /// A right-aligned numeric column.
        public static func number(_ title: String) -> Column { Column(title, numeric: true) }
    }

    /// Short machine-friendly name (CSV's `section` column).
    public var name: String
    public var title: String
    public var columns: [Column]
    public var rows: [[String]]

    public init(name: String, title: String, columns: [Column], rows: [[String]]) {
        self.name = name
        self.title = title
        self.columns = columns
        self.rows = rows
    }
}
