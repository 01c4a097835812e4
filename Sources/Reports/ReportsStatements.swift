import Postgres

/// Every report query, over the read models `journey_state` and `journey_attempts`; values are binds.
///
/// Reports own these reads (the one exception to "read models only through Projections"): each
/// filters on the window of ``ReportParameters`` through `\(window:on:)`.
enum ReportsStatements {
    /// Per environment, flow and purpose: journeys, completed, approved, abandoned, in progress.
    static func volume(_ parameters: ReportParameters) -> PostgresQuery {
        """
        SELECT coalesce(s.environment, ''), coalesce(s.flow, ''), coalesce(s.purpose, ''), count(*)::int,
               count(*) FILTER (WHERE s.status = 'completed')::int, count(*) FILTER (WHERE s.outcome = 'approved')::int,
               count(*) FILTER (WHERE s.status = 'abandoned')::int,
               count(*) FILTER (WHERE s.status NOT IN ('completed', 'abandoned'))::int
        FROM journey_state s
        WHERE \(window: parameters, on: "s")
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        """
    }

    /// One row: journeys started, then those that reached each step of ``FunnelReport/stepNames``,
    /// then those with each drop-off of ``FunnelReport/dropOffNames``.
    static func funnel(_ parameters: ReportParameters) -> PostgresQuery {
        """
        SELECT count(*)::int,
               count(*) FILTER (WHERE a.token)::int,
               count(*) FILTER (WHERE a.capture)::int,
               count(*) FILTER (WHERE a.callback)::int,
               count(*) FILTER (WHERE a.result)::int,
               count(*) FILTER (WHERE s.outcome = 'approved')::int,
               count(*) FILTER (WHERE a.closed)::int,
               count(*) FILTER (WHERE a.timed_out)::int
        FROM journey_state s
        LEFT JOIN LATERAL (
            SELECT bool_or(token_issued_at IS NOT NULL) AS token, bool_or(capture_opened_at IS NOT NULL) AS capture,
                   bool_or(callback_outcome = 'success') AS callback, bool_or(result_fetched_at IS NOT NULL) AS result,
                   bool_or(closed_by_user_at IS NOT NULL) AS closed, bool_or(session_timed_out_at IS NOT NULL) AS timed_out
            FROM journey_attempts x WHERE x.journey_id = s.journey_id) a ON true
        WHERE \(window: parameters, on: "s")
        """
    }

    /// Per SDK error code (NULL for attempts without one, last): count, and every attempt's count.
    static func sdkErrors(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH attempts AS (
            SELECT a.sdk_error_code FROM journey_attempts a JOIN journey_state s USING (journey_id)
            WHERE \(window: parameters, on: "s"))
        SELECT sdk_error_code, count(*)::int, (SELECT count(*)::int FROM attempts)
        FROM attempts GROUP BY sdk_error_code
        ORDER BY sdk_error_code IS NULL, 2 DESC, 1
        """
    }

    /// Success callbacks whose result came later than the threshold, or not yet at `now`.
    static func callbacksWithoutResult(_ parameters: ReportParameters) -> PostgresQuery {
        let now = parameters.now
        return """
            SELECT s.journey_id, a.attempt, s.environment, s.status, a.callback_at, a.result_fetched_at,
                   extract(epoch FROM coalesce(a.result_fetched_at, \(now)::timestamptz) - a.callback_at)::float8 / 60
            FROM journey_attempts a JOIN journey_state s USING (journey_id)
            WHERE \(window: parameters, on: "s") AND a.callback_outcome = 'success'
              AND a.callback_at <= \(now)::timestamptz - make_interval(mins => \(parameters.thresholdMinutes))
              AND (a.result_fetched_at IS NULL
                   OR a.result_fetched_at > a.callback_at + make_interval(mins => \(parameters.thresholdMinutes)))
            ORDER BY a.callback_at, s.journey_id, a.attempt
            """
    }

    /// Journeys neither completed nor abandoned without an event for the stuck minutes.
    static func stuckJourneys(_ parameters: ReportParameters) -> PostgresQuery {
        let now = parameters.now
        return """
            SELECT s.journey_id, s.environment, s.status, s.updated_at,
                   extract(epoch FROM \(now)::timestamptz - s.updated_at)::float8 / 60
            FROM journey_state s
            WHERE \(window: parameters, on: "s") AND s.status NOT IN ('completed', 'abandoned')
              AND s.updated_at <= \(now)::timestamptz - make_interval(mins => \(parameters.stuckMinutes))
            ORDER BY s.updated_at, s.journey_id
            """
    }

    /// The journeys of one subject, oldest first.
    static func subjectHistory(_ subject: String, _ parameters: ReportParameters) -> PostgresQuery {
        """
        SELECT s.journey_id, s.started_at, s.environment, s.flow, s.purpose, s.client_reference, s.status, s.outcome,
               s.current_attempt, s.last_error_code, coalesce(s.completed_at, s.abandoned_at)
        FROM journey_state s
        WHERE s.subject_reference = \(subject) AND \(window: parameters, on: "s")
        ORDER BY s.started_at, s.journey_id
        """
    }

    /// The attempt errors that count as expiries.
    static let expiredErrors = "('tokenExpired', 'processExpired')"

    /// Per UTC day: journeys, attempts, expired attempts, retried journeys, retries, most retries, retried approved.
    static func expiryRetry(_ parameters: ReportParameters) -> PostgresQuery {
        """
        SELECT (s.started_at AT TIME ZONE 'UTC')::date::text AS day,
               count(*)::int AS journeys,
               coalesce(sum(a.attempts), 0)::int AS attempts,
               coalesce(sum(a.expired), 0)::int AS expired,
               count(*) FILTER (WHERE s.current_attempt > 1)::int AS retried,
               coalesce(sum(greatest(s.current_attempt - 1, 0)), 0)::int AS retries,
               coalesce(max(greatest(s.current_attempt - 1, 0)), 0)::int AS max_retries,
               count(*) FILTER (WHERE s.current_attempt > 1 AND s.outcome = 'approved')::int AS retried_approved
        FROM journey_state s
        LEFT JOIN LATERAL (
            SELECT count(*) AS attempts, count(*) FILTER (WHERE x.error IN \(unsafeSQL: expiredErrors)) AS expired
            FROM journey_attempts x WHERE x.journey_id = s.journey_id) a ON true
        WHERE \(window: parameters, on: "s")
        GROUP BY 1 ORDER BY 1
        """
    }

    /// Row `-1`: samples and p50/p90/p99 from start, then from callback; then per `width_bucket`
    /// of the seconds from start over `bounds` (whole seconds), its count.
    static func timeToResult(_ parameters: ReportParameters, bounds: [Double]) -> PostgresQuery {
        let boundsSQL = "ARRAY[\(bounds.map { String(Int($0)) }.joined(separator: ","))]::float8[]"
        return """
            WITH r AS (
                SELECT extract(epoch FROM s.result_at - s.started_at)::float8 AS from_start,
                       extract(epoch FROM s.result_at - s.callback_at)::float8 AS from_callback
                FROM journey_state s
                WHERE \(window: parameters, on: "s") AND s.result_at IS NOT NULL)
            SELECT -1 AS bucket, count(from_start)::int,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY from_start),
                   percentile_cont(0.9) WITHIN GROUP (ORDER BY from_start),
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY from_start),
                   count(from_callback)::int,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY from_callback),
                   percentile_cont(0.9) WITHIN GROUP (ORDER BY from_callback),
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY from_callback)
            FROM r
            UNION ALL
            SELECT width_bucket(from_start, \(unsafeSQL: boundsSQL)), count(*)::int, NULL, NULL, NULL, NULL, NULL, NULL, NULL
            FROM r GROUP BY 1
            ORDER BY 1
            """
    }
}

extension PostgresQuery.StringInterpolation {
    /// `alias.started_at` in the window and, when given, `alias.environment` and `alias.tenant` equal to them.
    fileprivate mutating func appendInterpolation(window parameters: ReportParameters, on alias: String) {
        appendLiteral("\(alias).started_at >= ")
        appendInterpolation(parameters.from)
        appendLiteral("::timestamptz AND \(alias).started_at < ")
        appendInterpolation(parameters.to)
        appendLiteral("::timestamptz AND (")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral("::text IS NULL OR \(alias).environment = ")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral(") AND (")
        appendInterpolation(parameters.tenant)
        appendLiteral("::text IS NULL OR \(alias).tenant = ")
        appendInterpolation(parameters.tenant)
        appendLiteral(")")
    }
}
