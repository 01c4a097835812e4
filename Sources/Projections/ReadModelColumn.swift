/// A column of a read-model row: its name in the table and the function that gives its value.
struct ReadModelColumn<Row>: Sendable {
    let name: StaticString
    let value: @Sendable (Row) -> ReadModelValue

    init(_ name: StaticString, _ value: @escaping @Sendable (Row) -> ReadModelValue) {
        self.name = name
        self.value = value
    }
}

/// A read-model row: the one list of its table's columns and how each is computed. Its two
/// formats, ``ReadModelRowsJSON`` (the live upsert) and ``ReadModelCopy`` (a rebuild), only write
/// these values, so both paths give equal rows.
protocol ReadModelRow {
    /// Every column the row fills, in table order.
    static var columns: [ReadModelColumn<Self>] { get }
}
