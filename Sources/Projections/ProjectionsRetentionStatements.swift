import Foundation
import Postgres

/// The statements of ``SealedTokenRetention`` over `journey_state`; values are binds.
enum ProjectionsRetentionStatements {
    /// How many ended journeys still hold a sealed token or link in an attempt and ended before `cutoff`.
    static func journeysHoldingTokens(endedBefore cutoff: Date) -> PostgresQuery {
        """
        SELECT count(*)::int FROM journey_state
        WHERE status IN ('completed', 'abandoned')
          AND jsonb_path_exists(state, '$.attempts[*] ? (exists(@.webAppToken) || exists(@.processToken) || exists(@.link))')
          AND COALESCE(completed_at, abandoned_at) < \(cutoff)::timestamptz
        """
    }

    /// Removes `webAppToken`, `token` (`processToken`) and `link` from every attempt in the
    /// stored state of up to `limit` journeys that ended before `cutoff`, oldest first (the order
    /// keeps the planner on the partial index of schema/0023).
    static func dropTokens(endedBefore cutoff: Date, limit: Int) -> PostgresQuery {
        """
        UPDATE journey_state s SET state = jsonb_set(s.state, '{attempts}', (
            SELECT coalesce(jsonb_agg(x.a - '{webAppToken,processToken,link}'::text[] ORDER BY x.n), '[]'::jsonb)
            FROM jsonb_array_elements(s.state->'attempts') WITH ORDINALITY AS x(a, n)))
        WHERE s.journey_id IN (
            SELECT journey_id FROM journey_state
            WHERE status IN ('completed', 'abandoned')
              AND jsonb_path_exists(state, '$.attempts[*] ? (exists(@.webAppToken) || exists(@.processToken) || exists(@.link))')
              AND COALESCE(completed_at, abandoned_at) < \(cutoff)::timestamptz
            ORDER BY COALESCE(completed_at, abandoned_at)
            LIMIT \(limit)::int)
        """
    }
}
