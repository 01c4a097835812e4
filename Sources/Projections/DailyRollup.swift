import Foundation
import Postgres

/// The daily rollups of the journey read models that long report windows read (migration 0026).
///
/// Every applied batch moves the changed journeys' contribution from their stored rows to their
/// new ones before writing those, in the batch's transaction, so the rollups always equal an
/// aggregate of `journey_state` and `journey_attempts` by the UTC day of each journey's start.
public enum DailyRollup {
    /// Buckets of the seconds from start to result, as `width_bucket` numbers them (the
    /// time-to-result report's histogram): <10, 10-30, 30-60, 60-120, 120-300, 300-600, 600-1800, 1800+.
    public static let timeToResultBounds: [Double] = [10, 30, 60, 120, 300, 600, 1800]

    /// `ids` as the JSON array the statements bind.
    static func ids(_ ids: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    /// The new rows of a batch's changed journeys, as JSON arrays of the columns the rollups read.
    struct Rows: Sendable {
        let states: String
        let attempts: String
    }

    /// The statement that moves the rollups from the stored rows of the journeys in `ids` (JSON
    /// array) to `rows`, their new ones (every attempt of each): run it before writing the rows.
    static func delta(_ ids: String, to rows: Rows, tables: JourneyStateProjection.Tables) -> PostgresQuery {
        ProjectionsStatements.rollupDelta(ids: ids, states: rows.states, attempts: rows.attempts, tables: tables)
    }

    /// Fills the (empty) rollups of `tables` from every row of its read models.
    public static func fill(_ tables: JourneyStateProjection.Tables, on connection: PostgresConnection) throws {
        _ = try connection.query(ProjectionsStatements.rollup(ids: nil, sign: 1, tables: tables))
    }
}
