-- append_events, same contract as in 0001, with less work per call (measured with
-- `journeys bench append` and pgbench; figures in the EventStore docs):
-- - plan_cache_mode = force_generic_plan: each statement is planned once per session. Under
--   `auto` PostgreSQL replanned the unnest/ANY statements on every call (a generic plan
--   assumes 100 array elements, so it never looked cheaper than a custom one), ~10% of the
--   server's time per append. Every statement here is a primary-key or unique-index probe,
--   so the generic plan is the right plan for any array size -- provided it is one: a plan
--   made while `events` was still empty (a fresh database) chose a sequential scan for the
--   event-id lookup and kept it for the session (appends 5x slower as the log grew).
--   enable_seqscan = off pins the index probes whatever the statistics said at planning time.
-- - a new stream (expected version 0) is created by one INSERT ... RETURNING instead of a
--   SELECT, an INSERT and a second SELECT;
-- - the events INSERT and the streams UPDATE run as one statement;
-- - OUT parameters instead of RETURNS TABLE (no tuplestore per call).

DROP FUNCTION append_events(text, bigint, uuid[], text[], jsonb[], uuid[], uuid[], text[]);

CREATE FUNCTION append_events(
    p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data jsonb[],
    p_correlation uuid[], p_causation uuid[], p_actors text[],
    OUT positions bigint[], OUT version bigint
)
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off AS $$
DECLARE
    v_count    int := coalesce(cardinality(p_ids), 0);
    v_last_xid xid8;
    v_hash     bytea;
    v_now      timestamptz := clock_timestamp();
    v_stored   bigint;
    v_previous_hashes bytea[] := '{}';
    v_hashes   bytea[] := '{}';
BEGIN
    IF p_stream IS NULL OR p_stream = '' THEN
        RAISE EXCEPTION 'stream name is empty' USING ERRCODE = 'JS001';
    END IF;
    IF v_count = 0 OR cardinality(p_types) <> v_count OR cardinality(p_data) <> v_count
       OR cardinality(p_correlation) <> v_count OR cardinality(p_causation) <> v_count
       OR cardinality(p_actors) <> v_count THEN
        RAISE EXCEPTION 'no events to append, or event fields of unequal length' USING ERRCODE = 'JS002';
    END IF;

    -- The stream's head, locked until commit. A caller expecting a new stream usually gets one.
    IF p_expected = 0 THEN
        INSERT INTO streams AS s (stream_name, version, head_hash)
            VALUES (p_stream, 0, '\x0000000000000000000000000000000000000000000000000000000000000000')
            ON CONFLICT DO NOTHING
            RETURNING s.version, s.head_hash, s.last_transaction_id INTO version, v_hash, v_last_xid;
    END IF;
    IF v_hash IS NULL THEN
        SELECT s.version, s.head_hash, s.last_transaction_id INTO version, v_hash, v_last_xid
            FROM streams s WHERE s.stream_name = p_stream FOR NO KEY UPDATE;
        IF NOT FOUND THEN
            INSERT INTO streams (stream_name, version, head_hash)
                VALUES (p_stream, 0, '\x0000000000000000000000000000000000000000000000000000000000000000')
                ON CONFLICT DO NOTHING;
            SELECT s.version, s.head_hash, s.last_transaction_id INTO version, v_hash, v_last_xid
                FROM streams s WHERE s.stream_name = p_stream FOR NO KEY UPDATE;
        END IF;
    END IF;

    -- An idempotent retry: every id already stored in this stream returns the first positions.
    SELECT array_agg(ev.position ORDER BY ev.position), count(*) FILTER (WHERE ev.stream_name = p_stream)
        INTO positions, v_stored
        FROM events ev WHERE ev.event_id = ANY (p_ids);
    IF positions IS NOT NULL THEN
        IF v_stored = v_count AND cardinality(positions) = v_count THEN
            RETURN;
        END IF;
        RAISE EXCEPTION 'event id already stored in another append' USING ERRCODE = 'JS003';
    END IF;

    IF p_expected >= 0 AND version <> p_expected THEN
        RAISE EXCEPTION 'wrong expected version for stream'
            USING ERRCODE = 'JS004', DETAIL = format('expected %s, current %s', p_expected, version);
    END IF;

    -- See 0001: per-stream order must hold in the (transaction id, position) order too.
    IF v_last_xid > pg_current_xact_id() THEN
        RAISE EXCEPTION 'stream was appended by a newer transaction; retry the transaction'
            USING ERRCODE = 'serialization_failure';
    END IF;

    FOR i IN 1..v_count LOOP
        v_previous_hashes[i] := v_hash;
        v_hash := event_hash(v_hash, p_stream, version + i, p_ids[i], p_types[i], p_data[i],
                             p_correlation[i], p_causation[i], p_actors[i], v_now);
        v_hashes[i] := v_hash;
    END LOOP;

    WITH inserted AS (
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                            correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
        SELECT p_stream, version + e.n, e.id, e.type, e.data, e.correlation, e.causation, e.actor, v_now,
               e.previous_hash, e.hash
        FROM unnest(p_ids, p_types, p_data, p_correlation, p_causation, p_actors, v_previous_hashes, v_hashes)
             WITH ORDINALITY AS e(id, type, data, correlation, causation, actor, previous_hash, hash, n)
        ORDER BY e.n
        RETURNING events.position
    ), moved AS (
        UPDATE streams SET version = streams.version + v_count, head_hash = v_hash,
            last_transaction_id = pg_current_xact_id(), updated_at = v_now
        WHERE stream_name = p_stream
        RETURNING streams.version
    )
    SELECT (SELECT array_agg(inserted.position ORDER BY inserted.position) FROM inserted),
           (SELECT moved.version FROM moved)
        INTO positions, version;
END;
$$;

REVOKE ALL ON FUNCTION append_events(text, bigint, uuid[], text[], jsonb[], uuid[], uuid[], text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION append_events(text, bigint, uuid[], text[], jsonb[], uuid[], uuid[], text[]) TO journeys_app;
