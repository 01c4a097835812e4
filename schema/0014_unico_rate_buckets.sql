-- Unico's rate limit is per tenant, but every `serve` and `work` process has its own client-side
-- limiter. This token bucket, one row per environment and tenant, is the budget they share:
-- a process asks it after its own limiter admits a call. Time is the database's clock, the one
-- clock every process sees. Background calls leave `p_reserve` tokens in the bucket, so a live
-- journey start finds one at once even while workers keep the tenant busy.

CREATE TABLE unico_rate_buckets (
    bucket       text PRIMARY KEY CHECK (bucket <> ''),
    tokens       double precision NOT NULL CHECK (tokens >= 0),
    updated_at   timestamptz NOT NULL,
    -- A 429's Retry-After: nobody calls before this.
    paused_until timestamptz
);

-- Takes one token from `p_bucket` (rate `p_rate` per second, burst max(1, floor(rate))).
-- Returns 0 when taken, else the seconds to wait before asking again.
CREATE FUNCTION take_unico_token(p_bucket text, p_rate double precision, p_reserve double precision)
RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_capacity double precision := greatest(1, floor(p_rate));
    v_now      timestamptz := clock_timestamp();
    v_row      unico_rate_buckets%ROWTYPE;
    v_tokens   double precision;
    v_need     double precision := 1 + least(greatest(p_reserve, 0), v_capacity - 1);
BEGIN
    IF p_rate IS NULL OR p_rate <= 0 OR p_rate = 'Infinity' THEN
        RAISE EXCEPTION 'rate must be a positive number of requests per second' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO unico_rate_buckets (bucket, tokens, updated_at) VALUES (p_bucket, v_capacity, v_now)
        ON CONFLICT DO NOTHING;
    SELECT * INTO v_row FROM unico_rate_buckets WHERE bucket = p_bucket FOR UPDATE;
    IF v_row.paused_until > v_now THEN
        RETURN extract(epoch FROM v_row.paused_until - v_now);
    END IF;
    v_tokens := least(v_capacity, v_row.tokens
        + greatest(extract(epoch FROM v_now - greatest(v_row.updated_at, coalesce(v_row.paused_until, v_row.updated_at))), 0) * p_rate);
    IF v_tokens >= v_need - 1e-9 THEN
        UPDATE unico_rate_buckets SET tokens = greatest(v_tokens - 1, 0), updated_at = v_now, paused_until = NULL
            WHERE bucket = p_bucket;
        RETURN 0;
    END IF;
    UPDATE unico_rate_buckets SET tokens = v_tokens, updated_at = v_now, paused_until = NULL WHERE bucket = p_bucket;
    RETURN (v_need - v_tokens) / p_rate;
END;
$$;

-- Empties `p_bucket` and stops it for `p_seconds` (Unico answered 429 with Retry-After).
CREATE FUNCTION pause_unico_bucket(p_bucket text, p_seconds double precision)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO unico_rate_buckets AS b (bucket, tokens, updated_at, paused_until)
        VALUES (p_bucket, 0, clock_timestamp(), clock_timestamp() + make_interval(secs => greatest(p_seconds, 0)))
    ON CONFLICT (bucket) DO UPDATE SET tokens = 0, updated_at = clock_timestamp(),
        paused_until = greatest(b.paused_until, EXCLUDED.paused_until);
$$;

-- Least privilege: the application only calls the two functions.
REVOKE ALL ON FUNCTION take_unico_token(text, double precision, double precision) FROM PUBLIC;
REVOKE ALL ON FUNCTION pause_unico_bucket(text, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION take_unico_token(text, double precision, double precision) TO journeys_app;
GRANT EXECUTE ON FUNCTION pause_unico_bucket(text, double precision) TO journeys_app;
