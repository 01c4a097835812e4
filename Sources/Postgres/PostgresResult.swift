import CLibPQ

/// A libpq result owned by the rows read from it: cells are read in place, so decoding a row
/// allocates nothing for the row itself. libpq results are read-only once made, so any thread
/// may read them.
final class PostgresResult: @unchecked Sendable {
    let pointer: OpaquePointer
    let columns: ColumnNames
    let rowCount: Int
    let affectedRows: Int

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        self.rowCount = Int(PQntuples(pointer))
        self.columns = ColumnNames((0..<PQnfields(pointer)).map { String(cString: PQfname(pointer, $0)) })
        self.affectedRows = PostgresConnection.affectedRows(pointer)
    }

    deinit { PQclear(pointer) }

    /// The cell's text bytes (without the terminating NUL), nil for SQL NULL.
    @inline(__always)
    func bytes(row: Int, column: Int) -> UnsafeBufferPointer<UInt8>? {
        let r = Int32(truncatingIfNeeded: row), c = Int32(truncatingIfNeeded: column)
        if PQgetisnull(pointer, r, c) == 1 { return nil }
        let start = UnsafeRawPointer(PQgetvalue(pointer, r, c)!).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: start, count: Int(PQgetlength(pointer, r, c)))
    }
}
