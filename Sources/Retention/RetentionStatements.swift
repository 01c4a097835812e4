import Foundation
import Postgres

/// Every statement of the retention policy; values are binds.
///
/// The read-model statements mirror the partial indexes of `schema/0023_retention.sql` word for
/// word, so the planner uses them.
enum RetentionStatements {
    /// Subjects (after `after`, in reference order, at most `limit`) whose key is not erased and
    /// whose journeys in `journey_state` all ended (completed or abandoned) before `cutoff`.
    static func subjectsDue(endedBefore cutoff: Date, after: String, limit: Int) -> PostgresQuery {
        """
        SELECT s.subject_reference
        FROM journey_state s
        WHERE s.subject_reference IS NOT NULL AND s.subject_reference > \(after)
          AND NOT EXISTS (SELECT 1 FROM subject_keys k WHERE k.subject_ref = s.subject_reference AND k.erased_at IS NOT NULL)
        GROUP BY s.subject_reference
        HAVING bool_and(s.status IN ('completed', 'abandoned'))
           AND max(COALESCE(s.completed_at, s.abandoned_at)) < \(cutoff)::timestamptz
        ORDER BY s.subject_reference
        LIMIT \(limit)::int
        """
    }

    /// How many stored idempotency answers were stored before `cutoff`.
    static func idempotencyAnswersDue(before cutoff: Date) -> PostgresQuery {
        """
        SELECT count(*)::int FROM idempotency_keys
        WHERE outcome IS NOT NULL AND completed_at < \(cutoff)::timestamptz
        """
    }

    /// Drops up to `limit` stored answers stored before `cutoff`: the keys are left released, so a
    /// replay answers from the journey's state (as an erasure leaves them).
    static func purgeIdempotencyAnswers(before cutoff: Date, limit: Int) -> PostgresQuery {
        """
        UPDATE idempotency_keys k SET state = 'released', outcome = NULL
        FROM (SELECT api_key_id, key FROM idempotency_keys
              WHERE outcome IS NOT NULL AND completed_at < \(cutoff)::timestamptz
              ORDER BY completed_at LIMIT \(limit)::int) due
        WHERE k.api_key_id = due.api_key_id AND k.key = due.key AND k.outcome IS NOT NULL
        """
    }

    /// How many idempotency keys were answered or released before `cutoff`.
    static func idempotencyKeysDue(before cutoff: Date) -> PostgresQuery {
        "SELECT count(*)::int FROM idempotency_keys WHERE state <> 'in_progress' AND completed_at < \(cutoff)::timestamptz"
    }

    /// Deletes up to `limit` of those, oldest first (migration 0041's definer function).
    static func purgeIdempotencyKeys(before cutoff: Date, limit: Int) -> PostgresQuery {
        "SELECT purge_idempotency_keys(\(cutoff)::timestamptz, \(limit)::int)"
    }

    /// How many webhook deliveries were delivered or given up before `cutoff`.
    static func webhookDeliveriesDue(before cutoff: Date) -> PostgresQuery {
        """
        SELECT count(*)::int FROM webhook_deliveries
        WHERE (delivered_at IS NOT NULL OR given_up_at IS NOT NULL) AND coalesce(delivered_at, given_up_at) < \(cutoff)::timestamptz
        """
    }

    /// Deletes up to `limit` of those no resend names, oldest first (migration 0041's definer function).
    static func purgeWebhookDeliveries(before cutoff: Date, limit: Int) -> PostgresQuery {
        "SELECT purge_webhook_deliveries(\(cutoff)::timestamptz, \(limit)::int)"
    }

    /// How many ended journeys of `journey_state` still hold a sealed token or link in an attempt
    /// and ended before `cutoff`.
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
    /// keeps the planner on the partial index). The projector's role only.
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
