import Postgres

/// The statements that keep the daily rollups (`journey_daily`, `journey_daily_sdk_errors`,
/// `journey_daily_time_to_result`, `journey_daily_result_bins`, migration 0026) in step with the journey read models.
extension ProjectionsStatements {
    /// Adds (`sign` 1) or takes out (`sign` -1) the contribution of the journeys in `ids` (a JSON
    /// array), as their rows stand in `tables`, to the rollups: one statement, three upserts. With
    /// `ids` nil, adds every journey's (filling empty rollups after a rebuild).
    static func rollup(ids: String?, sign: Int, tables: JourneyStateProjection.Tables) -> PostgresQuery {
        // `= ANY (ARRAY(...))`, not `IN (SELECT ...)`: the planner takes a set-returning CTE for 100
        // rows and hash-joins it against a seq scan of the read models while they are small (4-6 ms
        // a statement at 9k journeys, twice a projection batch); an array keeps it on the keys.
        let only = ids == nil ? "" : "AND journey_id = ANY (ARRAY(SELECT journey_id FROM ids))"
        let bounds = "ARRAY[\(DailyRollup.timeToResultBounds.map { String(Int($0)) }.joined(separator: ","))]::float8[]"
        let counters = [
            "journeys", "completed", "approved", "abandoned", "token_issued", "capture_opened", "callback_success",
            "result_fetched", "closed_by_user", "timed_out", "attempts", "expired_attempts",
        ]
        let add = counters.map { "\($0) = d.\($0) + EXCLUDED.\($0)" }.joined(separator: ", ")
        return """
            WITH ids AS (SELECT json_array_elements_text(\(nullable: ids)::json) AS journey_id),
            a AS (
                SELECT journey_id, bool_or(token_issued_at IS NOT NULL) AS token, bool_or(capture_opened_at IS NOT NULL) AS capture,
                       bool_or(callback_outcome = 'success') AS callback, bool_or(result_fetched_at IS NOT NULL) AS result,
                       bool_or(closed_by_user_at IS NOT NULL) AS closed, bool_or(session_timed_out_at IS NOT NULL) AS timed_out,
                       count(*) AS attempts, count(*) FILTER (WHERE error IN ('tokenExpired', 'processExpired')) AS expired
                FROM \(unsafeSQL: tables.attempts) WHERE true \(unsafeSQL: only) GROUP BY journey_id),
            j AS (
                SELECT journey_id, (started_at AT TIME ZONE 'UTC')::date AS day, coalesce(environment, '') AS environment, tenant,
                       coalesce(flow, '') AS flow, coalesce(purpose, '') AS purpose, current_attempt, status, outcome,
                       extract(epoch FROM result_at - started_at)::float8 AS from_start,
                       extract(epoch FROM result_at - callback_at)::float8 AS from_callback
                FROM \(unsafeSQL: tables.state) WHERE started_at IS NOT NULL \(unsafeSQL: only)),
            daily AS (
                INSERT INTO \(unsafeSQL: tables.daily) AS d
                SELECT j.day, j.environment, j.tenant, j.flow, j.purpose, j.current_attempt, \(sign) * count(*),
                       \(sign) * count(*) FILTER (WHERE j.status = 'completed'), \(sign) * count(*) FILTER (WHERE j.outcome = 'approved'),
                       \(sign) * count(*) FILTER (WHERE j.status = 'abandoned'), \(sign) * count(*) FILTER (WHERE a.token),
                       \(sign) * count(*) FILTER (WHERE a.capture), \(sign) * count(*) FILTER (WHERE a.callback),
                       \(sign) * count(*) FILTER (WHERE a.result), \(sign) * count(*) FILTER (WHERE a.closed),
                       \(sign) * count(*) FILTER (WHERE a.timed_out), \(sign) * coalesce(sum(a.attempts), 0),
                       \(sign) * coalesce(sum(a.expired), 0)
                FROM j LEFT JOIN a USING (journey_id)
                GROUP BY 1, 2, 3, 4, 5, 6
                ON CONFLICT (day, environment, tenant, flow, purpose, current_attempt) DO UPDATE SET \(unsafeSQL: add)),
            errors AS (
                INSERT INTO \(unsafeSQL: tables.dailySDKErrors) AS d
                SELECT j.day, j.environment, j.tenant, coalesce(x.sdk_error_code, 0), \(sign) * count(*)
                FROM j JOIN \(unsafeSQL: tables.attempts) x USING (journey_id)
                GROUP BY 1, 2, 3, 4
                ON CONFLICT (day, environment, tenant, sdk_error_code) DO UPDATE SET attempts = d.attempts + EXCLUDED.attempts),
            bins AS (
                INSERT INTO \(unsafeSQL: tables.dailyResultBins) AS d
                SELECT j.day, j.environment, j.tenant, m.measure, journey_result_bin(m.seconds), \(sign) * count(*)
                FROM j CROSS JOIN LATERAL (VALUES (0::smallint, j.from_start), (1::smallint, j.from_callback)) AS m (measure, seconds)
                WHERE m.seconds IS NOT NULL
                GROUP BY 1, 2, 3, 4, 5
                ON CONFLICT (day, environment, tenant, measure, bin) DO UPDATE SET journeys = d.journeys + EXCLUDED.journeys)
            INSERT INTO \(unsafeSQL: tables.dailyTimeToResult) AS d
            SELECT j.day, j.environment, j.tenant, width_bucket(j.from_start, \(unsafeSQL: bounds)), \(sign) * count(*)
            FROM j WHERE j.from_start IS NOT NULL
            GROUP BY 1, 2, 3, 4
            ON CONFLICT (day, environment, tenant, bucket) DO UPDATE SET journeys = d.journeys + EXCLUDED.journeys
            """
    }

    /// Moves the rollups from the stored rows of the journeys in `ids` (a JSON array) to their new
    /// rows, `states` and `attempts` (JSON arrays of the rollup's columns of ``JourneyStateRow``
    /// / ``JourneyAttemptRow``, every attempt of each of those journeys): one statement, run before the
    /// rows are written. Each rollup row gets the net change only, and rows whose counts do not
    /// change are not touched (a journey's later events mostly leave its day's counts alone).
    static func rollupDelta(ids: String, states: String, attempts: String, tables: JourneyStateProjection.Tables) -> PostgresQuery
    {
        let bounds = "ARRAY[\(DailyRollup.timeToResultBounds.map { String(Int($0)) }.joined(separator: ","))]::float8[]"
        let counters: [(name: String, sum: String)] = [
            ("journeys", "sum(j.s)"), ("completed", "sum(j.s) FILTER (WHERE j.status = 'completed')"),
            ("approved", "sum(j.s) FILTER (WHERE j.outcome = 'approved')"),
            ("abandoned", "sum(j.s) FILTER (WHERE j.status = 'abandoned')"), ("token_issued", "sum(j.s) FILTER (WHERE a.token)"),
            ("capture_opened", "sum(j.s) FILTER (WHERE a.capture)"), ("callback_success", "sum(j.s) FILTER (WHERE a.callback)"),
            ("result_fetched", "sum(j.s) FILTER (WHERE a.result)"), ("closed_by_user", "sum(j.s) FILTER (WHERE a.closed)"),
            ("timed_out", "sum(j.s) FILTER (WHERE a.timed_out)"), ("attempts", "sum(j.s * a.attempts)"),
            ("expired_attempts", "sum(j.s * a.expired)"),
        ]
        let sums = counters.map { "coalesce(\($0.sum), 0)" }
        let changed = sums.map { "\($0) <> 0" }.joined(separator: " OR ")
        let add = counters.map { "\($0.name) = d.\($0.name) + EXCLUDED.\($0.name)" }.joined(separator: ", ")
        return """
            WITH ids AS (SELECT json_array_elements_text(\(ids)::json) AS journey_id),
            sx AS (
                SELECT -1 AS s, journey_id, started_at, environment, tenant, flow, purpose, current_attempt, status, outcome,
                       result_at, callback_at
                FROM \(unsafeSQL: tables.state) WHERE journey_id = ANY (ARRAY(SELECT journey_id FROM ids))
                UNION ALL
                SELECT 1, journey_id, started_at, environment, tenant, flow, purpose, current_attempt, status, outcome,
                       result_at, callback_at
                FROM json_populate_recordset(NULL::\(unsafeSQL: tables.state), \(states)::json)),
            ax AS (
                SELECT -1 AS s, journey_id, token_issued_at, capture_opened_at, callback_outcome, result_fetched_at,
                       closed_by_user_at, session_timed_out_at, error, sdk_error_code
                FROM \(unsafeSQL: tables.attempts) WHERE journey_id = ANY (ARRAY(SELECT journey_id FROM ids))
                UNION ALL
                SELECT 1, journey_id, token_issued_at, capture_opened_at, callback_outcome, result_fetched_at,
                       closed_by_user_at, session_timed_out_at, error, sdk_error_code
                FROM json_populate_recordset(NULL::\(unsafeSQL: tables.attempts), \(attempts)::json)),
            a AS (
                SELECT s, journey_id, bool_or(token_issued_at IS NOT NULL) AS token, bool_or(capture_opened_at IS NOT NULL) AS capture,
                       bool_or(callback_outcome = 'success') AS callback, bool_or(result_fetched_at IS NOT NULL) AS result,
                       bool_or(closed_by_user_at IS NOT NULL) AS closed, bool_or(session_timed_out_at IS NOT NULL) AS timed_out,
                       count(*) AS attempts, count(*) FILTER (WHERE error IN ('tokenExpired', 'processExpired')) AS expired
                FROM ax GROUP BY s, journey_id),
            j AS (
                SELECT s, journey_id, (started_at AT TIME ZONE 'UTC')::date AS day, coalesce(environment, '') AS environment, tenant,
                       coalesce(flow, '') AS flow, coalesce(purpose, '') AS purpose, current_attempt, status, outcome,
                       extract(epoch FROM result_at - started_at)::float8 AS from_start,
                       extract(epoch FROM result_at - callback_at)::float8 AS from_callback
                FROM sx WHERE started_at IS NOT NULL),
            daily AS (
                INSERT INTO \(unsafeSQL: tables.daily) AS d
                SELECT j.day, j.environment, j.tenant, j.flow, j.purpose, j.current_attempt, \(unsafeSQL: sums.joined(separator: ", "))
                FROM j LEFT JOIN a ON a.journey_id = j.journey_id AND a.s = j.s
                GROUP BY 1, 2, 3, 4, 5, 6
                HAVING \(unsafeSQL: changed)
                ON CONFLICT (day, environment, tenant, flow, purpose, current_attempt) DO UPDATE SET \(unsafeSQL: add)),
            errors AS (
                INSERT INTO \(unsafeSQL: tables.dailySDKErrors) AS d
                SELECT j.day, j.environment, j.tenant, coalesce(x.sdk_error_code, 0), sum(j.s)
                FROM j JOIN ax x ON x.journey_id = j.journey_id AND x.s = j.s
                GROUP BY 1, 2, 3, 4
                HAVING sum(j.s) <> 0
                ON CONFLICT (day, environment, tenant, sdk_error_code) DO UPDATE SET attempts = d.attempts + EXCLUDED.attempts),
            bins AS (
                INSERT INTO \(unsafeSQL: tables.dailyResultBins) AS d
                SELECT j.day, j.environment, j.tenant, m.measure, journey_result_bin(m.seconds), sum(j.s)
                FROM j CROSS JOIN LATERAL (VALUES (0::smallint, j.from_start), (1::smallint, j.from_callback)) AS m (measure, seconds)
                WHERE m.seconds IS NOT NULL
                GROUP BY 1, 2, 3, 4, 5
                HAVING sum(j.s) <> 0
                ON CONFLICT (day, environment, tenant, measure, bin) DO UPDATE SET journeys = d.journeys + EXCLUDED.journeys)
            INSERT INTO \(unsafeSQL: tables.dailyTimeToResult) AS d
            SELECT j.day, j.environment, j.tenant, width_bucket(j.from_start, \(unsafeSQL: bounds)), sum(j.s)
            FROM j WHERE j.from_start IS NOT NULL
            GROUP BY 1, 2, 3, 4
            HAVING sum(j.s) <> 0
            ON CONFLICT (day, environment, tenant, bucket) DO UPDATE SET journeys = d.journeys + EXCLUDED.journeys
            """
    }

    /// (Re)creates the rollups' rebuild twins empty (raw SQL, one script).
    static func createRebuildRollups(_ fresh: JourneyStateProjection.Tables, like live: JourneyStateProjection.Tables) -> String {
        """
        DROP TABLE IF EXISTS \(fresh.daily), \(fresh.dailySDKErrors), \(fresh.dailyTimeToResult), \(fresh.dailyResultBins);
        CREATE TABLE \(fresh.daily) (LIKE \(live.daily) INCLUDING ALL);
        CREATE TABLE \(fresh.dailySDKErrors) (LIKE \(live.dailySDKErrors) INCLUDING ALL);
        CREATE TABLE \(fresh.dailyTimeToResult) (LIKE \(live.dailyTimeToResult) INCLUDING ALL);
        CREATE TABLE \(fresh.dailyResultBins) (LIKE \(live.dailyResultBins) INCLUDING ALL);
        """
    }

    /// Renames the rebuilt rollups over the live ones and grants the roles their rights again,
    /// with their row-level security and the tenant analysts' policies (`grant_read_models()` of
    /// migration 0040; raw SQL, one script, inside the swap's transaction).
    static func swapRollups(_ fresh: JourneyStateProjection.Tables, into live: JourneyStateProjection.Tables) -> String {
        let pairs = [
            (fresh.daily, live.daily), (fresh.dailySDKErrors, live.dailySDKErrors),
            (fresh.dailyTimeToResult, live.dailyTimeToResult), (fresh.dailyResultBins, live.dailyResultBins),
        ]
        return pairs.map { fresh, live in
            """
            DROP TABLE \(live);
            ALTER TABLE \(fresh) RENAME TO \(live);
            ALTER INDEX \(fresh)_pkey RENAME TO \(live)_pkey;
            GRANT SELECT ON \(live) TO journeys_app, journeys_analyst;
            GRANT SELECT, INSERT, UPDATE, DELETE ON \(live) TO journeys_projector;
            """
        }.joined(separator: "\n") + "\nSELECT grant_read_models();"
    }
}
