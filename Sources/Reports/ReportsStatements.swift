import Postgres

/// Every report query, over the read models `journey_state` and `journey_attempts` and their daily
/// rollups `journey_daily*` (migration 0026); values are binds.
///
/// Reports own these reads (the one exception to "read models only through Projections"): each
/// filters on the window of ``ReportParameters`` through `\(window:on:)`. The counting reports
/// read the whole days of the window from the rollups (`\(days:on:)`) and the partial days at its
/// edges from the read models (`\(edges:on:)`), see ``ReportWindow``, and add the two up.
enum ReportsStatements {
    /// Per environment, flow and purpose: journeys, completed, approved, abandoned, in progress.
    static func volume(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH parts AS (
            SELECT coalesce(s.environment, '') AS e, coalesce(s.flow, '') AS f, coalesce(s.purpose, '') AS p, count(*) AS n,
                   count(*) FILTER (WHERE s.status = 'completed') AS c, count(*) FILTER (WHERE s.outcome = 'approved') AS a,
                   count(*) FILTER (WHERE s.status = 'abandoned') AS x,
                   count(*) FILTER (WHERE s.status NOT IN ('completed', 'abandoned')) AS o
            FROM journey_state s
            WHERE \(edges: parameters, on: "s")
            GROUP BY 1, 2, 3
            UNION ALL
            SELECT d.environment, d.flow, d.purpose, sum(d.journeys), sum(d.completed), sum(d.approved), sum(d.abandoned),
                   sum(d.journeys - d.completed - d.abandoned)
            FROM journey_daily d
            WHERE \(days: parameters, on: "d")
            GROUP BY 1, 2, 3)
        SELECT e, f, p, sum(n)::int, sum(c)::int, sum(a)::int, sum(x)::int, sum(o)::int
        FROM parts GROUP BY 1, 2, 3 HAVING sum(n) > 0 ORDER BY 1, 2, 3
        """
    }

    /// One row: journeys started, then those that reached each step of ``FunnelReport/stepNames``,
    /// then those with each drop-off of ``FunnelReport/dropOffNames``.
    static func funnel(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH parts AS (
            SELECT count(*) AS n,
                   count(*) FILTER (WHERE a.token) AS token,
                   count(*) FILTER (WHERE a.capture) AS capture,
                   count(*) FILTER (WHERE a.callback) AS callback,
                   count(*) FILTER (WHERE a.result) AS result,
                   count(*) FILTER (WHERE s.outcome = 'approved') AS approved,
                   count(*) FILTER (WHERE a.closed) AS closed,
                   count(*) FILTER (WHERE a.timed_out) AS timed_out
            FROM journey_state s
            LEFT JOIN LATERAL (
                SELECT bool_or(token_issued_at IS NOT NULL) AS token, bool_or(capture_opened_at IS NOT NULL) AS capture,
                       bool_or(callback_outcome = 'success') AS callback, bool_or(result_fetched_at IS NOT NULL) AS result,
                       bool_or(closed_by_user_at IS NOT NULL) AS closed, bool_or(session_timed_out_at IS NOT NULL) AS timed_out
                FROM journey_attempts x WHERE x.journey_id = s.journey_id) a ON true
            WHERE \(edges: parameters, on: "s")
            UNION ALL
            SELECT sum(journeys), sum(token_issued), sum(capture_opened), sum(callback_success), sum(result_fetched),
                   sum(approved), sum(closed_by_user), sum(timed_out)
            FROM journey_daily d
            WHERE \(days: parameters, on: "d"))
        SELECT coalesce(sum(n), 0)::int, coalesce(sum(token), 0)::int, coalesce(sum(capture), 0)::int,
               coalesce(sum(callback), 0)::int, coalesce(sum(result), 0)::int, coalesce(sum(approved), 0)::int,
               coalesce(sum(closed), 0)::int, coalesce(sum(timed_out), 0)::int
        FROM parts
        """
    }

    /// Per SDK error code (NULL for attempts without one, last): count, and every attempt's count.
    static func sdkErrors(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH parts AS (
            SELECT a.sdk_error_code AS code, count(*) AS n FROM journey_attempts a JOIN journey_state s USING (journey_id)
            WHERE \(edges: parameters, on: "s")
            GROUP BY 1
            UNION ALL
            SELECT nullif(d.sdk_error_code, 0), sum(d.attempts) FROM journey_daily_sdk_errors d
            WHERE \(days: parameters, on: "d")
            GROUP BY 1)
        SELECT code, sum(n)::int, (sum(sum(n)) OVER ())::int
        FROM parts GROUP BY code HAVING sum(n) > 0
        ORDER BY code IS NULL, 2 DESC, 1
        """
    }

    /// Success callbacks whose result came later than the threshold, or not yet at `now`.
    static func callbacksWithoutResult(_ parameters: ReportParameters) -> PostgresQuery {
        let now = parameters.now
        // The late callbacks come from the `resultWait` index, their journeys by primary key
        // (`OFFSET 0` keeps the lookup per callback rather than a scan of the window's journeys).
        return """
            SELECT s.journey_id, a.attempt, s.environment, s.status, a.callback_at, a.result_fetched_at,
                   extract(epoch FROM coalesce(a.result_fetched_at, \(now)::timestamptz) - a.callback_at)::float8 / 60
            FROM journey_attempts a
            CROSS JOIN LATERAL (
                SELECT s.journey_id, s.environment, s.status FROM journey_state s
                WHERE s.journey_id = a.journey_id AND \(window: parameters, on: "s") OFFSET 0) s
            WHERE a.callback_outcome = 'success'
              AND a.callback_at <= \(now)::timestamptz - make_interval(mins => \(parameters.thresholdMinutes))
              AND \(unsafeSQL: resultWait) > make_interval(mins => \(parameters.thresholdMinutes))
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

    /// How long a success callback's result took, far more than any threshold while it has none
    /// (migration 0026 indexes it): `> threshold` is "no result yet, or later than the threshold".
    static let resultWait = "(coalesce(a.result_fetched_at, '9999-12-31 00:00:00+00'::timestamptz) - a.callback_at)"

    /// The attempt errors that count as expiries.
    static let expiredErrors = "('tokenExpired', 'processExpired')"

    /// Per UTC day: journeys, attempts, expired attempts, retried journeys, retries, most retries, retried approved.
    static func expiryRetry(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH parts AS (
            SELECT (s.started_at AT TIME ZONE 'UTC')::date AS day,
                   count(*) AS journeys,
                   coalesce(sum(a.attempts), 0) AS attempts,
                   coalesce(sum(a.expired), 0) AS expired,
                   count(*) FILTER (WHERE s.current_attempt > 1) AS retried,
                   coalesce(sum(greatest(s.current_attempt - 1, 0)), 0) AS retries,
                   coalesce(max(greatest(s.current_attempt - 1, 0)), 0) AS max_retries,
                   count(*) FILTER (WHERE s.current_attempt > 1 AND s.outcome = 'approved') AS retried_approved
            FROM journey_state s
            LEFT JOIN LATERAL (
                SELECT count(*) AS attempts, count(*) FILTER (WHERE x.error IN \(unsafeSQL: expiredErrors)) AS expired
                FROM journey_attempts x WHERE x.journey_id = s.journey_id) a ON true
            WHERE \(edges: parameters, on: "s")
            GROUP BY 1
            UNION ALL
            SELECT d.day, sum(d.journeys), sum(d.attempts), sum(d.expired_attempts),
                   coalesce(sum(d.journeys) FILTER (WHERE d.current_attempt > 1), 0),
                   sum(d.journeys * greatest(d.current_attempt - 1, 0)),
                   coalesce(max(greatest(d.current_attempt - 1, 0)) FILTER (WHERE d.journeys > 0), 0),
                   coalesce(sum(d.approved) FILTER (WHERE d.current_attempt > 1), 0)
            FROM journey_daily d
            WHERE \(days: parameters, on: "d")
            GROUP BY 1)
        SELECT day::text, sum(journeys)::int, sum(attempts)::int, sum(expired)::int, sum(retried)::int, sum(retries)::int,
               max(max_retries)::int, sum(retried_approved)::int
        FROM parts GROUP BY 1 HAVING sum(journeys) > 0 ORDER BY 1
        """
    }

    /// Samples and p50/p90/p99 (`percentile_cont`) from start, then from callback, over every
    /// journey of the window (the read-model path ``TimeToResultReport`` is checked against).
    static func timeToResultPercentiles(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH r AS (
            SELECT extract(epoch FROM s.result_at - s.started_at)::float8 AS from_start,
                   extract(epoch FROM s.result_at - s.callback_at)::float8 AS from_callback
            FROM journey_state s
            WHERE \(window: parameters, on: "s") AND s.result_at IS NOT NULL)
        SELECT count(from_start)::int,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY from_start),
               percentile_cont(0.9) WITHIN GROUP (ORDER BY from_start),
               percentile_cont(0.99) WITHIN GROUP (ORDER BY from_start),
               count(from_callback)::int,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY from_callback),
               percentile_cont(0.9) WITHIN GROUP (ORDER BY from_callback),
               percentile_cont(0.99) WITHIN GROUP (ORDER BY from_callback)
        FROM r
        """
    }

    /// The seconds from start (measure 0) or from the success callback (measure 1) to the result.
    private static func resultSeconds(_ measure: Int) -> String {
        measure == 0
            ? "extract(epoch FROM s.result_at - s.started_at)::float8"
            : "extract(epoch FROM s.result_at - s.callback_at)::float8"
    }

    /// Per measure (0 from start, 1 from callback) and `journey_result_bin` of its seconds: journeys
    /// of the window with a result; whole days from `journey_daily_result_bins`.
    static func resultBins(_ parameters: ReportParameters) -> PostgresQuery {
        """
        WITH parts AS (
            SELECT m.measure, journey_result_bin(m.seconds) AS bin, count(*) AS n
            FROM journey_state s
            CROSS JOIN LATERAL (VALUES (0, \(unsafeSQL: resultSeconds(0))), (1, \(unsafeSQL: resultSeconds(1)))) AS m (measure, seconds)
            WHERE \(edges: parameters, on: "s") AND s.result_at IS NOT NULL AND m.seconds IS NOT NULL
            GROUP BY 1, 2
            UNION ALL
            SELECT d.measure, d.bin, sum(d.journeys) FROM journey_daily_result_bins d
            WHERE \(days: parameters, on: "d")
            GROUP BY 1, 2)
        SELECT measure::int, bin, sum(n)::int FROM parts GROUP BY 1, 2 HAVING sum(n) > 0 ORDER BY 1, 2
        """
    }

    /// For each `(bin, offset)` pair (`{…}` integer arrays of the same length): the seconds of
    /// `measure` of the window's journey at that 0-based offset in the bin, in order of seconds.
    /// Each pair walks the bin through the seconds index of migration 0028 and stops at its rank;
    /// a pair past the bin's end gives no row.
    static func resultRanks(_ parameters: ReportParameters, measure: Int, bins: String, offsets: String) -> PostgresQuery {
        let seconds = resultSeconds(measure)
        return """
            SELECT v.bin, v.k, x.seconds
            FROM unnest(\(bins)::int[], \(offsets)::int[]) AS v (bin, k)
            CROSS JOIN LATERAL (
                SELECT \(unsafeSQL: seconds) AS seconds
                FROM journey_state s
                WHERE journey_result_bin(\(unsafeSQL: seconds)) = v.bin
                  AND s.result_at IS NOT NULL \(unsafeSQL: measure == 0 ? "" : "AND s.callback_at IS NOT NULL")
                  AND \(window: parameters, on: "s")
                ORDER BY 1 OFFSET v.k LIMIT 1) x
            """
    }

    /// Per `width_bucket` of the seconds from start over `bounds` (whole seconds): journeys with a
    /// result; whole days from `journey_daily_time_to_result`.
    static func timeToResultHistogram(_ parameters: ReportParameters, bounds: [Double]) -> PostgresQuery {
        let boundsSQL = "ARRAY[\(bounds.map { String(Int($0)) }.joined(separator: ","))]::float8[]"
        return """
            SELECT bucket, sum(n)::int
            FROM (SELECT width_bucket(extract(epoch FROM s.result_at - s.started_at)::float8, \(unsafeSQL: boundsSQL)) AS bucket,
                         count(*) AS n
                  FROM journey_state s
                  WHERE \(edges: parameters, on: "s") AND s.result_at IS NOT NULL
                  GROUP BY 1
                  UNION ALL
                  SELECT d.bucket, sum(d.journeys) FROM journey_daily_time_to_result d
                  WHERE \(days: parameters, on: "d")
                  GROUP BY 1) parts
            GROUP BY 1 HAVING sum(n) > 0
            ORDER BY 1
            """
    }
}

extension PostgresQuery.StringInterpolation {
    /// `alias.started_at` in the partial days of the window (``ReportWindow``) and the environment.
    fileprivate mutating func appendInterpolation(edges parameters: ReportParameters, on alias: String) {
        let window = ReportWindow(parameters)
        appendLiteral("((\(alias).started_at >= ")
        appendInterpolation(parameters.from)
        appendLiteral("::timestamptz AND \(alias).started_at < ")
        appendInterpolation(window.dayFrom)
        appendLiteral("::timestamptz) OR (\(alias).started_at >= ")
        appendInterpolation(window.dayTo)
        appendLiteral("::timestamptz AND \(alias).started_at < ")
        appendInterpolation(parameters.to)
        appendLiteral("::timestamptz)) AND ")
        appendEnvironment(parameters, on: alias)
    }

    /// A rollup's `alias.day` in the whole days of the window (``ReportWindow``) and the environment.
    fileprivate mutating func appendInterpolation(days parameters: ReportParameters, on alias: String) {
        let days = ReportWindow(parameters).days
        appendLiteral("\(alias).day >= ")
        appendInterpolation(days.from)
        appendLiteral("::date AND \(alias).day < ")
        appendInterpolation(days.to)
        appendLiteral("::date AND ")
        appendEnvironment(parameters, on: alias)
    }

    /// `alias.environment` and `alias.tenant` (read models and rollups have both) equal to the given ones.
    private mutating func appendEnvironment(_ parameters: ReportParameters, on alias: String) {
        appendLiteral("(")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral("::text IS NULL OR \(alias).environment = ")
        appendInterpolation(parameters.environment?.rawValue)
        appendLiteral(") AND (")
        appendInterpolation(parameters.tenant)
        appendLiteral("::text IS NULL OR \(alias).tenant = ")
        appendInterpolation(parameters.tenant)
        appendLiteral(")")
    }

    /// `alias.started_at` in the window and, when given, `alias.environment` and `alias.tenant` equal to them.
    fileprivate mutating func appendInterpolation(window parameters: ReportParameters, on alias: String) {
        appendLiteral("\(alias).started_at >= ")
        appendInterpolation(parameters.from)
        appendLiteral("::timestamptz AND \(alias).started_at < ")
        appendInterpolation(parameters.to)
        appendLiteral("::timestamptz AND ")
        appendEnvironment(parameters, on: alias)
    }
}
