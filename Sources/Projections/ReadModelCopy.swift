import JSONBytes
import JourneyDomain
import Postgres
import Timestamps

/// Journey rows for a rebuild's `COPY`: one text per table, in the catalog's column order, each
/// row the values of the ``JourneyStateRow`` / ``JourneyAttemptRow`` the live projection upserts,
/// so both paths give equal rows. A column neither knows is NULL, as with `json_populate_recordset`.
struct ReadModelCopy {
    /// The tables' columns, in table order (read from the catalog at the start of a rebuild).
    struct Columns: Sendable {
        let state: [String]
        let attempts: [String]
    }

    let columns: Columns
    /// Per catalog column, the row's column that fills it (nil: NULL).
    private let stateColumns: [ReadModelColumn<JourneyStateRow>?]
    private let attemptColumns: [ReadModelColumn<JourneyAttemptRow>?]
    private(set) var stateRows = PostgresCopyText()
    private(set) var attemptRows = PostgresCopyText()

    init(columns: Columns) {
        self.columns = columns
        stateColumns = Self.map(columns.state)
        attemptColumns = Self.map(columns.attempts)
    }

    var isEmpty: Bool { stateRows.isEmpty }
    var byteCount: Int { stateRows.bytes.count + attemptRows.bytes.count }

    /// Adds the rows of one journey (its state row and one per attempt).
    mutating func append(id: String, state journey: JourneyState, position: Int64) throws {
        try Self.append(JourneyStateRow(id: id, state: journey, position: position), stateColumns, to: &stateRows)
        for attempt in journey.attempts {
            try Self.append(JourneyAttemptRow(journeyID: id, attempt: attempt), attemptColumns, to: &attemptRows)
        }
    }

    /// The row's column for each of `names`.
    private static func map<Row: ReadModelRow>(_ names: [String]) -> [ReadModelColumn<Row>?] {
        names.map { name in Row.columns.first { $0.name.description == name } }
    }

    /// Appends `row` as one line of `COPY` text.
    static func append<Row>(_ row: Row, _ columns: [ReadModelColumn<Row>?], to text: inout PostgresCopyText) throws {
        for column in columns {
            guard let column else { text.appendNull(); continue }
            switch column.value(row) {
            case .null: text.appendNull()
            case .text(let value): text.append(value)
            case .int(let value): text.append(Int64(value))
            case .timestamp(let value): text.appendPreEscaped { RFC3339.append(value, to: &$0) }
            case .state(let value):
                try text.appendPreEscaped { bytes in
                    var json = JSONWriter(copyEscaped: true)
                    swap(&json.bytes, &bytes)
                    defer { swap(&json.bytes, &bytes) }
                    try JourneyStateJSON.write(value, to: &json)
                }
            }
        }
        text.endRow()
    }

    /// Hands out the rows so far and starts empty.
    mutating func take() -> (state: PostgresCopyText, attempts: PostgresCopyText) {
        defer {
            stateRows = PostgresCopyText(reservingCapacity: stateRows.bytes.count)
            attemptRows = PostgresCopyText(reservingCapacity: attemptRows.bytes.count)
        }
        return (stateRows, attemptRows)
    }

    /// Copies `rows` into `tables` on `connection` (inside the caller's transaction).
    static func write(
        _ rows: (state: PostgresCopyText, attempts: PostgresCopyText), columns: Columns,
        tables: JourneyStateProjection.Tables, on connection: PostgresConnection
    ) throws {
        if !rows.state.isEmpty {
            try connection.copyIn(unsafeSQL: ProjectionsStatements.copy(into: tables.state, columns: columns.state), rows.state)
        }
        if !rows.attempts.isEmpty {
            try connection.copyIn(
                unsafeSQL: ProjectionsStatements.copy(into: tables.attempts, columns: columns.attempts),
                rows.attempts)
        }
    }

    /// The columns of `tables`, from the catalog.
    static func columns(of tables: JourneyStateProjection.Tables, on connection: PostgresConnection) throws -> Columns {
        func names(_ table: String) throws -> [String] {
            try connection.query(ProjectionsStatements.columns(of: table)).map { try $0.decode(0, as: String.self) }
        }
        return Columns(state: try names(tables.state), attempts: try names(tables.attempts))
    }
}
