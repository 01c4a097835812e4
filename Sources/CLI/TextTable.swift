/// A plain-text table with aligned columns, for terminal output.
///
/// Columns are separated by two spaces and the header is underlined with dashes. Widths are
/// counted in characters; line breaks inside cells become spaces; trailing spaces are trimmed.
public struct TextTable: Sendable {
    /// How a column's cells line up.
    public enum Alignment: Sendable {
        case left, right
    }

    /// A column's title and alignment.
    public struct Column: Sendable, ExpressibleByStringLiteral {
        public var title: String
        public var alignment: Alignment

        public init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }

        public init(stringLiteral title: String) {
            self.init(title)
        }
    }

    public var columns: [Column]
    /// The rows appended so far, each exactly as wide as `columns`.
    public private(set) var rows: [[String]] = []

    public init(columns: [Column]) {
        self.columns = columns
    }

    /// Appends a row; missing cells are empty and cells beyond the last column are dropped.
    public mutating func append(_ row: [String]) {
        let cells = Array(row.prefix(columns.count))
        rows.append(cells + Array(repeating: "", count: columns.count - cells.count))
    }

    /// The table as lines of text, each ending in a newline.
    public func render() -> String {
        let cells = rows.map { row in row.map { String($0.map { $0.isNewline ? " " : $0 }) } }
        let widths = columns.indices.map { index in
            cells.map { $0[index].count }.reduce(columns[index].title.count, max)
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { index in
                columns[index].alignment == .left
                    ? cells[index].paddedRight(to: widths[index])
                    : cells[index].paddedLeft(to: widths[index])
            }
            let text = padded.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        var output = line(columns.map(\.title))
        output += line(widths.map { String(repeating: "-", count: $0) })
        for row in cells { output += line(row) }
        return output
    }
}
