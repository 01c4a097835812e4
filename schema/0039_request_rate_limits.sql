-- Request rate limits shared by every `serve` process: one token bucket per API key, tenant, journey
-- (its client tokens) and Unico-webhook token client address, on the database's clock. Buckets are
-- short-lived counters, not records: the table is UNLOGGED (no WAL; a crash empties it, which only
-- hands out fresh bursts). A row whose bucket has refilled is the same as no row, and is deleted.

CREATE UNLOGGED TABLE request_rate_buckets (
    bucket     text PRIMARY KEY CHECK (bucket <> ''),
    tokens     double precision NOT NULL CHECK (tokens >= 0),
    updated_at timestamptz NOT NULL,
    -- When the bucket is full again if nobody takes from it: the row can go after this.
    full_at    timestamptz NOT NULL
);
CREATE INDEX request_rate_buckets_full_at ON request_rate_buckets (full_at);

-- Takes `p_cost` tokens from every bucket of `p_buckets` (rates per second `p_rates`, bursts
-- `p_bursts`, a full bucket for one never seen), all or none. Returns 0 when taken, else the
-- seconds until every bucket holds max(p_cost, 1) tokens. A cost of 0 only checks that each
-- bucket holds a token (an attempt limit's check after a success). Rows are locked in bucket
-- order, so concurrent calls over overlapping buckets do not deadlock.
CREATE FUNCTION take_request_tokens(p_buckets text[], p_rates double precision[], p_bursts double precision[],
                                    p_cost double precision)
RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_now    timestamptz := clock_timestamp();
    v_count  int := coalesce(array_length(p_buckets, 1), 0);
    v_need   double precision := greatest(p_cost, 1);
    v_tokens double precision[];
    v_wait   double precision := 0;
    v_row    record;
BEGIN
    IF v_count = 0 THEN
        RETURN 0;
    END IF;
    IF coalesce(array_length(p_rates, 1), 0) <> v_count OR coalesce(array_length(p_bursts, 1), 0) <> v_count
        OR p_cost IS NULL OR p_cost < 0 OR p_cost = 'Infinity' THEN
        RAISE EXCEPTION 'one rate and one burst per bucket, and a cost of zero or more' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR i IN 1..v_count LOOP
        IF p_buckets[i] IS NULL OR p_rates[i] IS NULL OR p_rates[i] <= 0 OR p_rates[i] = 'Infinity'
            OR p_bursts[i] IS NULL OR p_bursts[i] < 1 OR p_bursts[i] = 'Infinity' THEN
            RAISE EXCEPTION 'rates must be positive numbers per second and bursts at least 1' USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END LOOP;
    v_tokens := array_fill(0::double precision, ARRAY[v_count]);
    INSERT INTO request_rate_buckets (bucket, tokens, updated_at, full_at)
        SELECT t.b, p_bursts[t.i], v_now, v_now FROM unnest(p_buckets) WITH ORDINALITY AS t(b, i) ORDER BY t.b
        ON CONFLICT DO NOTHING;
    FOR v_row IN
        SELECT r.tokens, r.updated_at, t.i::int AS i
        FROM request_rate_buckets r JOIN unnest(p_buckets) WITH ORDINALITY AS t(b, i) ON r.bucket = t.b
        ORDER BY r.bucket FOR UPDATE OF r
    LOOP
        v_tokens[v_row.i] := least(p_bursts[v_row.i],
            v_row.tokens + greatest(extract(epoch FROM v_now - v_row.updated_at), 0) * p_rates[v_row.i]);
        v_wait := greatest(v_wait, (v_need - v_tokens[v_row.i]) / p_rates[v_row.i]);
    END LOOP;
    IF v_wait > 1e-9 THEN
        RETURN v_wait;  -- refused: nothing taken, the rows stay as they were
    END IF;
    IF p_cost > 0 THEN
        UPDATE request_rate_buckets r
            SET tokens = greatest(v_tokens[t.i] - p_cost, 0), updated_at = v_now,
                full_at = v_now + make_interval(secs => (p_bursts[t.i] - greatest(v_tokens[t.i] - p_cost, 0)) / p_rates[t.i])
            FROM unnest(p_buckets) WITH ORDINALITY AS t(b, i) WHERE r.bucket = t.b;
    END IF;
    -- Now and then, the rows of buckets that have refilled go (one per journey would pile up).
    IF random() < 0.002 THEN
        DELETE FROM request_rate_buckets WHERE bucket IN (
            SELECT bucket FROM request_rate_buckets WHERE full_at < v_now ORDER BY full_at LIMIT 1000 FOR UPDATE SKIP LOCKED);
    END IF;
    RETURN 0;
END;
$$;

-- A tenant's share of a Unico bucket that several journeys tenants use (those without a Unico
-- account of their own): `p_share_bucket` refills at `p_share` of `p_rate`. Within its share a
-- tenant takes as from `take_unico_token`; beyond it, it may borrow only while the shared bucket
-- keeps (1 - p_share) of its burst for the others. Alone, a tenant still gets the whole rate; when
-- one floods, another finds tokens at once and gets at least its share.
CREATE FUNCTION take_unico_share(p_bucket text, p_share_bucket text, p_rate double precision, p_reserve double precision,
                                 p_share double precision)
RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_capacity       double precision := greatest(1, floor(p_rate));
    v_share_rate     double precision := p_rate * p_share;
    v_share_capacity double precision := greatest(1, floor(p_rate * p_share));
    v_now            timestamptz := clock_timestamp();
    v_row            unico_rate_buckets%ROWTYPE;
    v_own_row        unico_rate_buckets%ROWTYPE;
    v_tokens         double precision;
    v_own            double precision;
    v_need           double precision := 1 + least(greatest(p_reserve, 0), v_capacity - 1);
BEGIN
    IF p_rate IS NULL OR p_rate <= 0 OR p_rate = 'Infinity' THEN
        RAISE EXCEPTION 'rate must be a positive number of requests per second' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_share IS NULL OR p_share <= 0 OR p_share > 1 THEN
        RAISE EXCEPTION 'share must be in (0, 1]' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_share_bucket IS NULL OR p_share_bucket = p_bucket THEN
        RAISE EXCEPTION 'the share needs a bucket of its own' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO unico_rate_buckets (bucket, tokens, updated_at) VALUES (p_bucket, v_capacity, v_now)
        ON CONFLICT DO NOTHING;
    INSERT INTO unico_rate_buckets (bucket, tokens, updated_at) VALUES (p_share_bucket, v_share_capacity, v_now)
        ON CONFLICT DO NOTHING;
    -- Always the shared bucket first, then the share: one lock order for every caller.
    SELECT * INTO v_row FROM unico_rate_buckets WHERE bucket = p_bucket FOR UPDATE;
    IF v_row.paused_until > v_now THEN
        RETURN extract(epoch FROM v_row.paused_until - v_now);
    END IF;
    SELECT * INTO v_own_row FROM unico_rate_buckets WHERE bucket = p_share_bucket FOR UPDATE;
    v_tokens := least(v_capacity, v_row.tokens
        + greatest(extract(epoch FROM v_now - greatest(v_row.updated_at, coalesce(v_row.paused_until, v_row.updated_at))), 0) * p_rate);
    v_own := least(v_share_capacity, v_own_row.tokens
        + greatest(extract(epoch FROM v_now - v_own_row.updated_at), 0) * v_share_rate);
    IF v_own < 1 - 1e-9 THEN
        -- Beyond its share: what it borrows must leave the others' part of the burst.
        v_need := least(v_capacity, v_need + v_capacity * (1 - p_share));
    END IF;
    IF v_tokens >= v_need - 1e-9 THEN
        UPDATE unico_rate_buckets SET tokens = greatest(v_tokens - 1, 0), updated_at = v_now, paused_until = NULL
            WHERE bucket = p_bucket;
        UPDATE unico_rate_buckets SET tokens = greatest(v_own - 1, 0), updated_at = v_now WHERE bucket = p_share_bucket;
        RETURN 0;
    END IF;
    UPDATE unico_rate_buckets SET tokens = v_tokens, updated_at = v_now, paused_until = NULL WHERE bucket = p_bucket;
    UPDATE unico_rate_buckets SET tokens = v_own, updated_at = v_now WHERE bucket = p_share_bucket;
    IF v_own < 1 - 1e-9 THEN
        RETURN least((1 - v_own) / v_share_rate, (v_need - v_tokens) / p_rate);
    END IF;
    RETURN (v_need - v_tokens) / p_rate;
END;
$$;

-- Least privilege: the application only calls the functions.
REVOKE ALL ON FUNCTION take_request_tokens(text[], double precision[], double precision[], double precision) FROM PUBLIC;
REVOKE ALL ON FUNCTION take_unico_share(text, text, double precision, double precision, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION take_request_tokens(text[], double precision[], double precision[], double precision) TO journeys_app;
GRANT EXECUTE ON FUNCTION take_unico_share(text, text, double precision, double precision, double precision) TO journeys_app;
