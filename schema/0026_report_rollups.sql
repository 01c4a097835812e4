-- Daily rollups of the journey read models for the reports over long windows (issue 15.5).
--
-- Keyed by the UTC day a journey started, its environment, tenant, flow and purpose (empty text for
-- none) and its attempt count, so every figure is a sum and "most retries" a max over keys. The
-- journey projection keeps them in the same transaction as journey_state and journey_attempts:
-- it takes the touched journeys' contribution out before their rows change and puts it back
-- after (ProjectionsRollupStatements); a rebuild fills fresh twins from the rebuilt tables and
-- swaps them in with the rest. A report reads whole days here and the partial days at its
-- window's edges from the read models, so answers stay exact.

CREATE TABLE journey_daily (
    day              date    NOT NULL,
    environment      text    NOT NULL,
    tenant           text    NOT NULL,
    flow             text    NOT NULL,
    purpose          text    NOT NULL,
    current_attempt  integer NOT NULL,
    journeys         integer NOT NULL,
    completed        integer NOT NULL,
    approved         integer NOT NULL,
    abandoned        integer NOT NULL,
    token_issued     integer NOT NULL,
    capture_opened   integer NOT NULL,
    callback_success integer NOT NULL,
    result_fetched   integer NOT NULL,
    closed_by_user   integer NOT NULL,
    timed_out        integer NOT NULL,
    attempts         integer NOT NULL,
    expired_attempts integer NOT NULL,
    PRIMARY KEY (day, environment, tenant, flow, purpose, current_attempt)
);

-- Attempts per SDK error code (0: attempts without one).
CREATE TABLE journey_daily_sdk_errors (
    day            date    NOT NULL,
    environment    text    NOT NULL,
    tenant         text    NOT NULL,
    sdk_error_code integer NOT NULL,
    attempts       integer NOT NULL,
    PRIMARY KEY (day, environment, tenant, sdk_error_code)
);

-- Journeys with a result per histogram bucket of the seconds from start to result
-- (width_bucket over TimeToResultReport.bounds).
CREATE TABLE journey_daily_time_to_result (
    day         date    NOT NULL,
    environment text    NOT NULL,
    tenant      text    NOT NULL,
    bucket      integer NOT NULL,
    journeys    integer NOT NULL,
    PRIMARY KEY (day, environment, tenant, bucket)
);

-- The time-to-result percentiles stay exact without sorting a year of journeys: a report counts
-- journeys per logarithmic bin of their seconds to result (about 6% wide) from the rollup below,
-- finds the bins holding the ranks percentile_cont interpolates between, and sorts only the
-- journeys of those bins (indexes below).
CREATE FUNCTION journey_result_bin(seconds float8) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN floor(ln(1 + greatest(seconds, 0)) * 16)::integer;

-- Journeys with a result per bin of the seconds from start (measure 0) and from the success
-- callback (measure 1) to the result.
CREATE TABLE journey_daily_result_bins (
    day         date     NOT NULL,
    environment text     NOT NULL,
    tenant      text     NOT NULL,
    measure     smallint NOT NULL,
    bin         integer  NOT NULL,
    journeys    integer  NOT NULL,
    PRIMARY KEY (day, environment, tenant, measure, bin)
);

CREATE INDEX journey_state_result_bin_start
    ON journey_state (journey_result_bin(extract(epoch FROM result_at - started_at)::float8), started_at)
    INCLUDE (environment, tenant, result_at) WHERE result_at IS NOT NULL;
CREATE INDEX journey_state_result_bin_callback
    ON journey_state (journey_result_bin(extract(epoch FROM result_at - callback_at)::float8), started_at)
    INCLUDE (environment, tenant, result_at, callback_at) WHERE result_at IS NOT NULL AND callback_at IS NOT NULL;
-- Success callbacks by how long their result took (far future: none yet), for the SLA report.
CREATE INDEX journey_attempts_result_wait
    ON journey_attempts ((coalesce(result_fetched_at, '9999-12-31 00:00:00+00'::timestamptz) - callback_at))
    WHERE callback_outcome = 'success';
-- So the planner knows how few those are (without it, a third of all attempts: a hash join and JIT).
CREATE STATISTICS journey_attempts_result_wait_stats
    ON (coalesce(result_fetched_at, '9999-12-31 00:00:00+00'::timestamptz) - callback_at) FROM journey_attempts;

-- Started journeys by start time with what the partial days and the SLA lists read.
CREATE INDEX journey_state_started ON journey_state (started_at) INCLUDE (environment, tenant);
-- Journeys not yet completed or abandoned (the SLA "stuck" list).
CREATE INDEX journey_state_open ON journey_state (updated_at) WHERE status NOT IN ('completed', 'abandoned');

GRANT SELECT ON journey_daily, journey_daily_sdk_errors, journey_daily_time_to_result, journey_daily_result_bins
    TO journeys_app, journeys_analyst;
GRANT SELECT, INSERT, UPDATE, DELETE
    ON journey_daily, journey_daily_sdk_errors, journey_daily_time_to_result, journey_daily_result_bins TO journeys_projector;

-- The journeys projected so far (the projection keeps the rollups from here on).
WITH a AS (
    SELECT journey_id, bool_or(token_issued_at IS NOT NULL) AS token, bool_or(capture_opened_at IS NOT NULL) AS capture,
           bool_or(callback_outcome = 'success') AS callback, bool_or(result_fetched_at IS NOT NULL) AS result,
           bool_or(closed_by_user_at IS NOT NULL) AS closed, bool_or(session_timed_out_at IS NOT NULL) AS timed_out,
           count(*) AS attempts, count(*) FILTER (WHERE error IN ('tokenExpired', 'processExpired')) AS expired
    FROM journey_attempts GROUP BY journey_id),
j AS (
    SELECT journey_id, (started_at AT TIME ZONE 'UTC')::date AS day, coalesce(environment, '') AS environment, tenant,
           coalesce(flow, '') AS flow, coalesce(purpose, '') AS purpose, current_attempt, status, outcome,
           extract(epoch FROM result_at - started_at)::float8 AS from_start,
           extract(epoch FROM result_at - callback_at)::float8 AS from_callback
    FROM journey_state WHERE started_at IS NOT NULL),
daily AS (
    INSERT INTO journey_daily
    SELECT j.day, j.environment, j.tenant, j.flow, j.purpose, j.current_attempt, count(*),
           count(*) FILTER (WHERE j.status = 'completed'), count(*) FILTER (WHERE j.outcome = 'approved'),
           count(*) FILTER (WHERE j.status = 'abandoned'), count(*) FILTER (WHERE a.token),
           count(*) FILTER (WHERE a.capture), count(*) FILTER (WHERE a.callback), count(*) FILTER (WHERE a.result),
           count(*) FILTER (WHERE a.closed), count(*) FILTER (WHERE a.timed_out),
           coalesce(sum(a.attempts), 0), coalesce(sum(a.expired), 0)
    FROM j LEFT JOIN a USING (journey_id)
    GROUP BY 1, 2, 3, 4, 5, 6),
errors AS (
    INSERT INTO journey_daily_sdk_errors
    SELECT j.day, j.environment, j.tenant, coalesce(x.sdk_error_code, 0), count(*)
    FROM j JOIN journey_attempts x USING (journey_id)
    GROUP BY 1, 2, 3, 4),
bins AS (
    INSERT INTO journey_daily_result_bins
    SELECT j.day, j.environment, j.tenant, m.measure, journey_result_bin(m.seconds), count(*)
    FROM j CROSS JOIN LATERAL (VALUES (0::smallint, j.from_start), (1::smallint, j.from_callback)) AS m (measure, seconds)
    WHERE m.seconds IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5)
INSERT INTO journey_daily_time_to_result
SELECT j.day, j.environment, j.tenant, width_bucket(j.from_start, ARRAY[10,30,60,120,300,600,1800]::float8[]), count(*)
FROM j WHERE j.from_start IS NOT NULL
GROUP BY 1, 2, 3, 4;
