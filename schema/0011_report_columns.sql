-- Compliance reports: the per-attempt facts the funnel and the SDK error report count, and the
-- time of each journey's latest event (SLA "stuck" report). The projection writes them from now
-- on; existing rows are filled from the stored state (`state` holds JourneyState as JSON, dates as
-- seconds since 2001-01-01 UTC, Foundation's default). A rebuild writes the same values.

ALTER TABLE journey_attempts
    ADD COLUMN token_issued_at  timestamptz,
    ADD COLUMN callback_outcome text,
    ADD COLUMN sdk_error_code   integer;

ALTER TABLE journey_state ADD COLUMN updated_at timestamptz;

UPDATE journey_attempts a SET
    token_issued_at  = timestamptz '2001-01-01 00:00:00+00' + make_interval(secs => (e.attempt->>'firstTokenIssuedAt')::float8),
    callback_outcome = e.attempt->'callbackOutcome'->>'outcome',
    sdk_error_code   = coalesce(e.attempt->'callbackOutcome'->>'code', e.attempt->'failureReason'->>'sdkCode')::integer
FROM (
    SELECT s.journey_id, (x.n)::integer AS number, x.attempt
    FROM journey_state s, jsonb_array_elements(s.state->'attempts') WITH ORDINALITY AS x(attempt, n)
) e
WHERE a.journey_id = e.journey_id AND a.attempt = e.number;

UPDATE journey_state SET updated_at =
    timestamptz '2001-01-01 00:00:00+00' + make_interval(secs => (state->>'updatedAt')::float8);
