import Foundation

/// The rows a statement returned, decoded from the text format.
public struct PostgresRows: Sendable, Sequence {
    public let columns: [String]
    public let rows: [PostgresRow]
    /// The number of rows a command affected (`INSERT`, `UPDATE`, ...), from `PQcmdTuples`.
    public let affectedRows: Int

    public init(columns: [String], rows: [PostgresRow], affectedRows: Int) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    public var count: Int { rows.count }
    public var first: PostgresRow? { rows.first }
    public func makeIterator() -> IndexingIterator<[PostgresRow]> { rows.makeIterator() }
}

/// One row; cells are decoded by column index or name.
public struct PostgresRow: Sendable {
    let columns: ColumnNames
    let cells: [String?]

    init(columns: ColumnNames, cells: [String?]) {
        self.columns = columns
        self.cells = cells
    }

    /// Decodes the cell at `index`.
    public func decode<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard index < cells.count else {
            throw PostgresError(.decodingFailed, "column index \(index) out of range")
        }
        return try T.decode(postgresText: cells[index], column: columns.names[index])
    }

    /// Decodes the cell of the column named `name`.
    public func decode<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.index[name] else {
            throw PostgresError(.decodingFailed, "no column named \(name)")
        }
        return try T.decode(postgresText: cells[index], column: name)
    }

    /// The raw text of a cell, nil for NULL.
    public func text(_ index: Int) -> String? { cells[index] }
}

/// Column names shared by every row of one result.
final class ColumnNames: Sendable {
    let names: [String]
    let index: [String: Int]
    init(_ names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
        self.index = index
    }
}
