import Foundation
import Postgres

/// Every statement over `unico_rate_buckets` (through its functions, schema 0014); values are binds.
enum RateBudgetStatements {
    /// Takes a token from `bucket`; answers the seconds to wait first (0 when none).
    static func take(bucket: String, rate: Double, reserve: Double) -> PostgresQuery {
        """
        SELECT take_unico_token(\(bucket), \(rate), \(reserve))
        """
    }

    /// Empties `bucket` for `seconds` (after a 429).
    static func pause(bucket: String, seconds: TimeInterval) -> PostgresQuery {
        "SELECT pause_unico_bucket(\(bucket), \(seconds))"
    }
}
