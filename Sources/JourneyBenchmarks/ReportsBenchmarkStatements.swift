import Foundation
import Postgres

/// The statements of `journeys-bench reports`: bulk generation of read-model rows, and the
/// straightforward answers the reports are checked against.
enum ReportsBenchmarkStatements {
    /// Journeys `first...last` of `count`, spread evenly over `[start, start + span)` with
    /// per-journey randomness from `hashint8`, written straight into `journey_state`; `r(k)` is the
    /// k-th uniform number of journey `i`. Mix: 1-4 attempts (80/14/5/1%); fates approved 72%,
    /// rejected 8%, abandoned 19.7% (expired, SDK error or closed camera), waiting for a result 0.3%.
    static func insertStates(first: Int, last: Int, count: Int, start: Date, spanSeconds: Double) -> PostgresQuery {
        """
        INSERT INTO journey_state (journey_id, status, environment, flow, purpose, client_reference, subject_reference,
                                   current_attempt, last_error_code, started_at, captured_at, callback_at, result_at,
                                   completed_at, abandoned_at, outcome, version, updated_position, state, updated_at)
        SELECT 'bench-' || i, CASE fate WHEN 'approved' THEN 'completed' WHEN 'rejected' THEN 'completed'
                                        WHEN 'abandoned' THEN 'abandoned' ELSE 'awaitingResult' END,
               CASE WHEN r1 < 0.25 THEN 'UAT' ELSE 'PROD' END, CASE WHEN r2 < 0.85 THEN 'humantoken' ELSE 'link' END,
               (ARRAY['creditprocess', 'biometryonboarding', 'carpurchase', 'ageverification'])[1 + floor(r3 * 4)::int],
               'order-' || i, 'sr-' || (i % 400000), attempts, CASE WHEN fate = 'abandoned' THEN 73305 END,
               started, last_start + interval '30 seconds', CASE WHEN fate <> 'abandoned' THEN result - callback_lead END,
               CASE WHEN fate IN ('approved', 'rejected') THEN result END,
               CASE WHEN fate IN ('approved', 'rejected') THEN result END, CASE WHEN fate = 'abandoned' THEN result END,
               CASE WHEN fate IN ('approved', 'rejected') THEN fate END, 6 * attempts, i, '{}'::jsonb, result
        FROM (SELECT i, r1, r2, r3, started, attempts, fate,
                     started + (attempts - 1) * interval '10 minutes' AS last_start,
                     started + (attempts - 1) * interval '10 minutes' + (20 + r6 * r6 * 3000) * interval '1 second' AS result,
                     (2 + r7 * 120) * interval '1 second' AS callback_lead
              FROM (SELECT i, r1, r2, r3, r6, r7,
                           \(start)::timestamptz + ((i + r0) * \(spanSeconds)::float8 / \(count)::float8) * interval '1 second' AS started,
                           CASE WHEN r4 < 0.80 THEN 1 WHEN r4 < 0.94 THEN 2 WHEN r4 < 0.99 THEN 3 ELSE 4 END AS attempts,
                           CASE WHEN r5 < 0.72 THEN 'approved' WHEN r5 < 0.80 THEN 'rejected'
                                WHEN r5 < 0.997 THEN 'abandoned' ELSE 'waiting' END AS fate
                    FROM (SELECT i, \(unsafeSQL: uniform(0)) AS r0, \(unsafeSQL: uniform(1)) AS r1, \(unsafeSQL: uniform(2)) AS r2,
                                 \(unsafeSQL: uniform(3)) AS r3, \(unsafeSQL: uniform(4)) AS r4, \(unsafeSQL: uniform(5)) AS r5,
                                 \(unsafeSQL: uniform(6)) AS r6, \(unsafeSQL: uniform(7)) AS r7
                          FROM generate_series(\(first)::bigint, \(last)::bigint) AS i) u) g) j
        """
    }

    /// The attempts of journeys `first...last`, from their `journey_state` rows: earlier attempts
    /// expired (token 45%, process 10%) or ended in an SDK error; the last one follows the fate.
    static func insertAttempts(first: Int, last: Int) -> PostgresQuery {
        """
        INSERT INTO journey_attempts (journey_id, attempt, process_id, requested_at, created_at, token_issued_at,
                                      token_expires_at, capture_opened_at, callback_at, result_fetched_at, outcome, error,
                                      callback_outcome, sdk_error_code, closed_by_user_at)
        SELECT journey_id, k, journey_id || '-p' || k, at, at + interval '1 second', at + interval '2 seconds',
               at + interval '5 minutes', CASE WHEN kind <> 'tokenExpired' THEN at + interval '30 seconds' END,
               CASE WHEN kind = 'success' THEN s.callback_at WHEN kind = 'sdkError' THEN at + interval '40 seconds' END,
               CASE WHEN kind = 'success' AND s.outcome IS NOT NULL THEN s.result_at END,
               CASE WHEN kind = 'success' AND s.outcome = 'approved' THEN 'ok'
                    WHEN kind = 'success' AND s.outcome = 'rejected' THEN 'nok' END,
               CASE WHEN kind IN ('tokenExpired', 'processExpired', 'sdkError') THEN kind END,
               CASE WHEN kind = 'success' THEN 'success' WHEN kind = 'sdkError' THEN 'error' END,
               CASE WHEN kind = 'sdkError' THEN code END,
               CASE WHEN kind = 'closed' THEN at + interval '50 seconds' END
        FROM journey_state s,
             LATERAL generate_series(1, s.current_attempt) AS k,
             LATERAL (SELECT s.started_at + (k - 1) * interval '10 minutes' AS at,
                             \(unsafeSQL: uniform(8, id: "s.updated_position * 8 + k")) AS r,
                             (ARRAY[73006, 73302, 73303, 73304, 73305, 73701])[1 + floor(
                                 \(unsafeSQL: uniform(9, id: "s.updated_position * 8 + k")) * 6)::int] AS code) x,
             LATERAL (SELECT CASE
                          WHEN k = s.current_attempt AND s.status <> 'abandoned' THEN 'success'
                          WHEN r < 0.45 THEN 'tokenExpired' WHEN r < 0.55 THEN 'processExpired'
                          WHEN r < 0.90 THEN 'sdkError' ELSE 'closed' END AS kind) w
        WHERE s.updated_position BETWEEN \(first)::bigint AND \(last)::bigint
        """
    }

    /// A uniform number in [0, 1) from `hashint8` of `id` (SQL) and `k`.
    private static func uniform(_ k: Int, id: String = "i") -> String {
        "((hashint8((\(id)) * 16 + \(k)) & 2147483647)::float8 / 2147483648)"
    }

    /// A lost chunk only means a throwaway database is short.
    static let asynchronousCommit = "SET LOCAL synchronous_commit = off"

    static let analyze =
        "VACUUM ANALYZE journey_state, journey_attempts, journey_daily, journey_daily_sdk_errors, journey_daily_time_to_result, journey_daily_result_bins"

    static let stateCount: PostgresQuery = "SELECT count(*)::int FROM journey_state"

    /// A subject reference with journeys (for `subject-history`).
    static let someSubject: PostgresQuery =
        "SELECT subject_reference FROM journey_state WHERE subject_reference IS NOT NULL LIMIT 1"
}
