-- append_events, same contract, signature, owner, grants and settings as in 0033, with less
-- server work for several events (issue 15 item 2; instructions per call from callgrind over
-- `postgres --single`, 500 ten-event appends into a copy of a bench database, half of them
-- to new streams as in `bench append`):
-- - The hash chain is a recursive CTE inside the write statement instead of a plpgsql loop
--   (four assignments per event, each array element copied), so the chain, the stream head
--   UPDATE and the events INSERT are one statement. 1.95M -> 1.92M a call.
-- - Several events on a new stream (expected version 0): the chain starts at the zero head,
--   and the stream row (final version and head) and the events are inserted by one
--   statement, as 0033 does for one event; a stream that exists inserts nothing and goes the
--   usual way (a retry, or a wrong expected version). 1.92M -> 1.89M a call.
-- - The floor: a bare 10-row INSERT into `events` with its indexes costs 1.36M here (0.79M
--   into an unindexed copy of its columns); the rest is the head lock, the checks and the hash.
-- Unchanged: one event (0033's paths), the errors (JS001-JS004, 23505 from
-- events_event_id_key, 40001), the retry probe, the hash bytes (equal to event_hash; tests
-- compare both paths), the global order.

CREATE OR REPLACE FUNCTION append_events(
    p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data jsonb[],
    p_correlation uuid[], p_causation uuid[], p_actors text[],
    OUT positions bigint[], OUT version bigint
)
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off AS $$
DECLARE
    v_count    int := coalesce(cardinality(p_ids), 0);
    v_last_xid xid8;
    v_hash     bytea;
    v_now      timestamptz := clock_timestamp();
    v_stored   bigint;
    v_stream_field text;
    v_time_field   text;
    v_version_text text;
    v_data_text    text;
    v_previous bytea;
BEGIN
    IF p_stream IS NULL OR p_stream = '' THEN
        RAISE EXCEPTION 'stream name is empty' USING ERRCODE = 'JS001';
    END IF;
    IF v_count = 0 OR cardinality(p_types) <> v_count OR cardinality(p_data) <> v_count
       OR cardinality(p_correlation) <> v_count OR cardinality(p_causation) <> v_count
       OR cardinality(p_actors) <> v_count THEN
        RAISE EXCEPTION 'no events to append, or event fields of unequal length' USING ERRCODE = 'JS002';
    END IF;

    -- One event on a new stream (a journey's first append): the head is known before it exists
    -- (version 0, the zero hash), so the hash comes first and the stream row is inserted with
    -- its final values in the same statement as the event. An existing stream inserts nothing
    -- and takes the path below.
    IF v_count = 1 AND p_expected = 0 THEN
        v_previous := '\x0000000000000000000000000000000000000000000000000000000000000000';
        v_version_text := '1';
        v_data_text := p_data[1]::text;
        v_hash := sha256(v_previous || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
            event_hash_field(p_stream), octet_length(v_version_text), v_version_text, p_ids[1],
            octet_length(p_types[1]), p_types[1], octet_length(v_data_text), v_data_text,
            CASE WHEN p_correlation[1] IS NULL THEN '-' ELSE '36:' || p_correlation[1]::text END,
            CASE WHEN p_causation[1] IS NULL THEN '-' ELSE '36:' || p_causation[1]::text END,
            CASE WHEN p_actors[1] IS NULL THEN '-' ELSE octet_length(p_actors[1]) || ':' || p_actors[1] END,
            event_hash_field((extract(epoch FROM v_now) * 1000000)::bigint::text)), 'UTF8'));
        WITH created AS (
            INSERT INTO streams AS s (stream_name, version, head_hash, last_transaction_id, updated_at)
                VALUES (p_stream, 1, v_hash, pg_current_xact_id(), v_now)
                ON CONFLICT DO NOTHING
                RETURNING s.version
        )
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                            correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
        SELECT p_stream, created.version, p_ids[1], p_types[1], p_data[1], p_correlation[1], p_causation[1],
               p_actors[1], v_now, v_previous, v_hash
        FROM created
        RETURNING ARRAY[events.position], events.stream_version INTO positions, version;
        IF FOUND THEN
            RETURN;
        END IF;
        v_hash := NULL;
    END IF;

    -- Several events on a new stream: the chain from the zero head, the stream row with its
    -- final version and head, and the events, in one statement.
    IF v_count > 1 AND p_expected = 0 THEN
        v_stream_field := event_hash_field(p_stream);
        v_time_field := event_hash_field((extract(epoch FROM v_now) * 1000000)::bigint::text);
        WITH RECURSIVE chain(n, previous_hash, hash) AS (
            SELECT 0, NULL::bytea, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
            UNION ALL
            SELECT c.n + 1, c.hash, sha256(c.hash || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
                v_stream_field, octet_length(x.v), x.v, p_ids[c.n + 1],
                octet_length(p_types[c.n + 1]), p_types[c.n + 1], octet_length(x.d), x.d,
                CASE WHEN p_correlation[c.n + 1] IS NULL THEN '-' ELSE '36:' || p_correlation[c.n + 1]::text END,
                CASE WHEN p_causation[c.n + 1] IS NULL THEN '-' ELSE '36:' || p_causation[c.n + 1]::text END,
                CASE WHEN p_actors[c.n + 1] IS NULL THEN '-' ELSE octet_length(p_actors[c.n + 1]) || ':' || p_actors[c.n + 1] END,
                v_time_field), 'UTF8'))
            FROM chain c CROSS JOIN LATERAL (SELECT (c.n + 1)::text AS v, p_data[c.n + 1]::text AS d OFFSET 0) x
            WHERE c.n < v_count
        ), created AS (
            INSERT INTO streams AS s (stream_name, version, head_hash, last_transaction_id, updated_at)
                SELECT p_stream, v_count, chain.hash, pg_current_xact_id(), v_now FROM chain WHERE chain.n = v_count
                ON CONFLICT DO NOTHING
                RETURNING s.version
        ), inserted AS (
            INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                                correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
            SELECT p_stream, c.n, p_ids[c.n], p_types[c.n], p_data[c.n], p_correlation[c.n],
                   p_causation[c.n], p_actors[c.n], v_now, c.previous_hash, c.hash
            FROM chain c, created WHERE c.n > 0
            ORDER BY c.n
            RETURNING events.position
        )
        SELECT array_agg(inserted.position ORDER BY inserted.position) FROM inserted INTO positions;
        IF positions IS NOT NULL THEN
            version := v_count;
            RETURN;
        END IF;
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
    -- Only an append with any version, or one the stream has moved past, can be a retry.
    IF p_expected < 0 OR version <> p_expected THEN
        SELECT array_agg(ev.position ORDER BY ev.position), count(*) FILTER (WHERE ev.stream_name = p_stream)
            INTO positions, v_stored
            FROM events ev WHERE ev.event_id = ANY (p_ids);
        IF positions IS NOT NULL THEN
            IF v_stored = v_count AND cardinality(positions) = v_count THEN
                RETURN;
            END IF;
            RAISE EXCEPTION 'event id already stored in another append' USING ERRCODE = 'JS003';
        END IF;
        IF p_expected >= 0 THEN
            RAISE EXCEPTION 'wrong expected version for stream'
                USING ERRCODE = 'JS004', DETAIL = format('expected %s, current %s', p_expected, version);
        END IF;
    END IF;

    -- See 0001: per-stream order must hold in the (transaction id, position) order too.
    IF v_last_xid > pg_current_xact_id() THEN
        RAISE EXCEPTION 'stream was appended by a newer transaction; retry the transaction'
            USING ERRCODE = 'serialization_failure';
    END IF;

    -- event_hash (0001) byte for byte, in one format() call instead of 9 event_hash_field calls
    -- (each a CASE, a length, a cast and three concatenations, every function ACL-checked
    -- when plpgsql initializes the expression, once per transaction): uuid text is always 36
    -- bytes, and the stream name and recorded_at fields are the same for every event.
    IF v_count = 1 THEN
        v_previous := v_hash;
        v_version_text := (version + 1)::text;
        v_data_text := p_data[1]::text;
        v_hash := sha256(v_previous || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
            event_hash_field(p_stream), octet_length(v_version_text), v_version_text, p_ids[1],
            octet_length(p_types[1]), p_types[1], octet_length(v_data_text), v_data_text,
            CASE WHEN p_correlation[1] IS NULL THEN '-' ELSE '36:' || p_correlation[1]::text END,
            CASE WHEN p_causation[1] IS NULL THEN '-' ELSE '36:' || p_causation[1]::text END,
            CASE WHEN p_actors[1] IS NULL THEN '-' ELSE octet_length(p_actors[1]) || ':' || p_actors[1] END,
            event_hash_field((extract(epoch FROM v_now) * 1000000)::bigint::text)), 'UTF8'));
        -- One event (most appends): a VALUES row instead of an unnest of eight arrays.
        WITH moved AS (
            UPDATE streams SET version = streams.version + 1, head_hash = v_hash,
                last_transaction_id = pg_current_xact_id(), updated_at = v_now
            WHERE stream_name = p_stream
        )
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                            correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
        VALUES (p_stream, version + 1, p_ids[1], p_types[1], p_data[1], p_correlation[1], p_causation[1],
                p_actors[1], v_now, v_previous, v_hash)
        RETURNING ARRAY[events.position], events.stream_version INTO positions, version;
    ELSE
        v_stream_field := event_hash_field(p_stream);
        v_time_field := event_hash_field((extract(epoch FROM v_now) * 1000000)::bigint::text);
        WITH RECURSIVE chain(n, previous_hash, hash) AS (
            SELECT 0, NULL::bytea, v_hash
            UNION ALL
            SELECT c.n + 1, c.hash, sha256(c.hash || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
                v_stream_field, octet_length(x.v), x.v, p_ids[c.n + 1],
                octet_length(p_types[c.n + 1]), p_types[c.n + 1], octet_length(x.d), x.d,
                CASE WHEN p_correlation[c.n + 1] IS NULL THEN '-' ELSE '36:' || p_correlation[c.n + 1]::text END,
                CASE WHEN p_causation[c.n + 1] IS NULL THEN '-' ELSE '36:' || p_causation[c.n + 1]::text END,
                CASE WHEN p_actors[c.n + 1] IS NULL THEN '-' ELSE octet_length(p_actors[c.n + 1]) || ':' || p_actors[c.n + 1] END,
                v_time_field), 'UTF8'))
            FROM chain c CROSS JOIN LATERAL (SELECT (version + c.n + 1)::text AS v, p_data[c.n + 1]::text AS d OFFSET 0) x
            WHERE c.n < v_count
        ), moved AS (
            UPDATE streams SET version = streams.version + v_count,
                head_hash = (SELECT chain.hash FROM chain WHERE chain.n = v_count),
                last_transaction_id = pg_current_xact_id(), updated_at = v_now
            WHERE stream_name = p_stream
        ), inserted AS (
            INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                                correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
            SELECT p_stream, version + c.n, p_ids[c.n], p_types[c.n], p_data[c.n], p_correlation[c.n],
                   p_causation[c.n], p_actors[c.n], v_now, c.previous_hash, c.hash
            FROM chain c WHERE c.n > 0
            ORDER BY c.n
            RETURNING events.position
        )
        SELECT array_agg(inserted.position ORDER BY inserted.position) FROM inserted INTO positions;
        version := version + v_count;
    END IF;
END;
$$;
