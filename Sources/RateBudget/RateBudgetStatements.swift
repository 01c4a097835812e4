import Foundation
import Postgres

/// Every statement over `unico_rate_buckets` and `request_rate_buckets` (through their functions,
/// schemas 0014 and 0039); values are binds.
enum RateBudgetStatements {
    /// Takes a token from `bucket`; answers the seconds to wait first (0 when none).
    static func take(bucket: String, rate: Double, reserve: Double) -> PostgresQuery {
        """
        SELECT take_unico_token(\(bucket), \(rate), \(reserve))
        """
    }

    /// Takes a token from `bucket` within or beyond the caller's `share` kept in `shareBucket`;
    /// answers the seconds to wait first (0 when none).
    static func take(bucket: String, shareBucket: String, rate: Double, reserve: Double, share: Double) -> PostgresQuery {
        """
        SELECT take_unico_share(\(bucket), \(shareBucket), \(rate), \(reserve), \(share))
        """
    }

    /// Empties `bucket` for `seconds` (after a 429).
    static func pause(bucket: String, seconds: TimeInterval) -> PostgresQuery {
        "SELECT pause_unico_bucket(\(bucket), \(seconds))"
    }

    /// Takes `cost` tokens from every one of `buckets`, all or none; answers the seconds to wait
    /// first (0 when taken).
    static func take(buckets: [String], rates: [Double], bursts: [Double], cost: Double) -> PostgresQuery {
        """
        SELECT take_request_tokens(\(buckets), \(rates), \(bursts), \(cost))
        """
    }
}
