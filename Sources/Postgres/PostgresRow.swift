import Foundation

/// The rows a statement returned, decoded from the text format on access.
public struct PostgresRows: Sendable, RandomAccessCollection {
    private let result: PostgresResult?
    /// The number of rows a command affected (`INSERT`, `UPDATE`, ...), from `PQcmdTuples`.
    public let affectedRows: Int

    init(_ result: PostgresResult) {
        self.result = result
        self.affectedRows = result.affectedRows
    }

    init(affectedRows: Int) {
        self.result = nil
        self.affectedRows = affectedRows
    }

    public var columns: [String] { result?.columns.names ?? [] }
    /// The rows as an array.
    public var rows: [PostgresRow] { Array(self) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { result?.rowCount ?? 0 }
    public subscript(position: Int) -> PostgresRow { PostgresRow(result: result!, row: position) }
}

/// One row; cells are decoded by column index or name, straight from the result's bytes.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let row: Int

    /// Decodes the cell at `index`.
    public func decode<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        let names = result.columns.names
        guard index >= 0, index < names.count else {
            throw PostgresError(.decodingFailed, "column index \(index) out of range")
        }
        return try T.decode(postgresBytes: result.bytes(row: row, column: index), column: names[index])
    }

    /// Decodes the cell of the column named `name`.
    public func decode<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = result.columns.index[name] else {
            throw PostgresError(.decodingFailed, "no column named \(name)")
        }
        return try T.decode(postgresBytes: result.bytes(row: row, column: index), column: name)
    }

    /// The raw text of a cell, nil for NULL.
    public func text(_ index: Int) -> String? {
        result.bytes(row: row, column: index).map { String(decoding: $0, as: UTF8.self) }
    }
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
