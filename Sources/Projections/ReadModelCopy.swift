import JourneyDomain
import Postgres

/// Journey rows for a rebuild's `COPY`: one text per table, each row written by
/// ``JourneyCopyRows`` with the fields of the ``StateRow`` / ``AttemptRow`` the live projection
/// upserts, so both paths give equal rows.
struct ReadModelCopy {
    /// The tables' columns, in table order (read from the catalog at the start of a rebuild).
    struct Columns: Sendable {
        let state: [String]
        let attempts: [String]
    }

    let columns: Columns
    private let rows: JourneyCopyRows
    private(set) var stateRows = PostgresCopyText()
    private(set) var attemptRows = PostgresCopyText()

    init(columns: Columns) {
        self.columns = columns
        rows = JourneyCopyRows(columns: columns)
    }

    var isEmpty: Bool { stateRows.isEmpty }
    var byteCount: Int { stateRows.bytes.count + attemptRows.bytes.count }

    /// Adds the rows of one journey (its state row and one per attempt).
    mutating func append(id: String, state journey: JourneyState, position: Int64) throws {
        try rows.appendState(id: id, state: journey, position: position, to: &stateRows)
        for attempt in journey.attempts {
            rows.appendAttempt(journeyID: id, attempt: attempt, to: &attemptRows)
        }
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
