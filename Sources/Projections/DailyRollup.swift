import Foundation
import Postgres

/// The daily rollups of the journey read models that long report windows read (migration 0026).
///
/// Every applied batch takes the changed journeys' contribution out before their rows are
/// written and adds it back after, in the batch's transaction, so the rollups always equal an
/// aggregate of `journey_state` and `journey_attempts` by the UTC day of each journey's start.
public enum DailyRollup {
    /// Buckets of the seconds from start to result, as `width_bucket` numbers them (the
    /// time-to-result report's histogram): <10, 10-30, 30-60, 60-120, 120-300, 300-600, 600-1800, 1800+.
    public static let timeToResultBounds: [Double] = [10, 30, 60, 120, 300, 600, 1800]

    /// `ids` as the JSON array the statements bind.
    static func ids(_ ids: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    /// The statement that adds (`sign` 1) or takes out (-1) the contribution of the journeys in `ids` (JSON array).
    static func adjustment(_ ids: String, by sign: Int, tables: JourneyStateProjection.Tables) -> PostgresQuery {
        ProjectionsStatements.rollup(ids: ids, sign: sign, tables: tables)
    }

    /// Fills the (empty) rollups of `tables` from every row of its read models.
    public static func fill(_ tables: JourneyStateProjection.Tables, on connection: PostgresConnection) throws {
        _ = try connection.query(ProjectionsStatements.rollup(ids: nil, sign: 1, tables: tables))
    }
}
