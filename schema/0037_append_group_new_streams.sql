-- append_events_group, same contract, signature, owner, grants and settings as in 0031, with
-- 0033's new-stream idea for a group (issue 15 item 2; instructions per call from callgrind over
-- `postgres --single`, 500 groups of 8 one-event appends, half of them to new streams):
-- - Appends expecting a new stream (version 0, a journey's first append) chain from the zero
--   head first, and their stream rows are inserted once with the final version, head and last
--   writer (one INSERT for the group); those rows are then neither locked nor updated. A stream
--   that exists inserts nothing, and its append goes 0031's way (a retry, or outcome 2).
--   Only when no id of the group is already stored (the probe moved first); otherwise 0031.
-- - The create and lock statements run only when some append still needs them.
--   3.06M -> 2.88M a call.
-- Unchanged: the outcomes (0-6), the refusal of one append leaving the others written, the
-- hash bytes (equal to event_hash), positions in append order, the global order.

CREATE OR REPLACE FUNCTION append_events_group(
    p_streams text[], p_expected bigint[], p_counts int[], p_ids uuid[], p_types text[], p_data jsonb[],
    p_correlation uuid[], p_causation uuid[], p_actors text[],
    OUT outcomes int[], OUT versions bigint[], OUT positions bigint[]
)
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off AS $$
DECLARE
    v_appends  int := coalesce(cardinality(p_streams), 0);
    v_events   int := coalesce(cardinality(p_ids), 0);
    v_now      timestamptz := clock_timestamp();
    v_xid      xid8;
    v_known    bigint;
    v_stream   text;
    v_expected bigint;
    v_count    int;
    v_first    int := 1;
    v_version  bigint;
    v_hash     bytea;
    v_last_xid xid8;
    v_stored   bigint;
    v_found    bigint[];
    v_ev_stream  text[] := array_fill(NULL::text, ARRAY[v_events]);
    v_ev_version bigint[] := array_fill(NULL::bigint, ARRAY[v_events]);
    v_previous   bytea[] := array_fill(NULL::bytea, ARRAY[v_events]);
    v_hashes     bytea[] := array_fill(NULL::bytea, ARRAY[v_events]);
    v_up_stream  text[] := '{}';
    v_up_version bigint[] := '{}';
    v_up_hash    bytea[] := '{}';
    v_inserted   bigint[];
    v_next       int := 1;
    v_created    boolean;
    v_new        text[];
    v_names      text[];
    v_versions   bigint[];
    v_heads      bytea[];
    v_last_xids  xid8[];
    v_at         int;
    v_undo       text[] := '{}';
    v_stream_field text;
    v_time_field   text := event_hash_field((extract(epoch FROM v_now) * 1000000)::bigint::text);
    v_version_text text;
    v_data_text    text;
    v_fast_stream  text[] := '{}';
    v_fast_version bigint[] := '{}';
    v_fast_head    bytea[] := '{}';
    v_fast_done    text[] := '{}';
    v_maybe_new    int := 0;
BEGIN
    IF v_appends = 0 OR cardinality(p_expected) <> v_appends OR cardinality(p_counts) <> v_appends
       OR cardinality(p_types) <> v_events OR cardinality(p_data) <> v_events
       OR cardinality(p_correlation) <> v_events OR cardinality(p_causation) <> v_events
       OR cardinality(p_actors) <> v_events
       OR (SELECT coalesce(sum(greatest(c, 0)), 0) FROM unnest(p_counts) c) <> v_events THEN
        RAISE EXCEPTION 'no appends, or append fields of unequal length' USING ERRCODE = 'JS002';
    END IF;
    outcomes := array_fill(NULL::int, ARRAY[v_appends]);
    versions := array_fill(NULL::bigint, ARRAY[v_appends]);
    positions := array_fill(NULL::bigint, ARRAY[v_events]);
    v_xid := pg_current_xact_id();

    -- Idempotent retries are rare: one probe for the whole group decides whether to look per append.
    SELECT count(*) INTO v_known FROM events ev WHERE ev.event_id = ANY (p_ids);

    -- New streams (expected version 0, a journey's first append) when no id is known: each chain
    -- starts at the zero head, so every such stream row is inserted once with its final version
    -- and head, and is neither locked nor updated after. A stream that exists inserts nothing,
    -- and its append goes the usual way below (a retry, or a wrong expected version).
    FOR a IN 1..v_appends LOOP
        v_stream := p_streams[a];
        v_count := greatest(p_counts[a], 0);
        IF p_expected[a] <= 0 THEN
            v_maybe_new := v_maybe_new + 1;
        END IF;
        IF v_known = 0 AND p_expected[a] = 0 AND v_count > 0 AND v_stream <> ''
           AND NOT (v_stream = ANY (p_streams[1:a - 1])) THEN
            v_hash := '\x0000000000000000000000000000000000000000000000000000000000000000';
            v_stream_field := event_hash_field(v_stream);
            FOR i IN 0..v_count - 1 LOOP
                v_previous[v_first + i] := v_hash;
                v_version_text := (i + 1)::text;
                v_data_text := p_data[v_first + i]::text;
                v_hash := sha256(v_hash || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
                    v_stream_field, octet_length(v_version_text), v_version_text, p_ids[v_first + i],
                    octet_length(p_types[v_first + i]), p_types[v_first + i], octet_length(v_data_text), v_data_text,
                    CASE WHEN p_correlation[v_first + i] IS NULL THEN '-' ELSE '36:' || p_correlation[v_first + i]::text END,
                    CASE WHEN p_causation[v_first + i] IS NULL THEN '-' ELSE '36:' || p_causation[v_first + i]::text END,
                    CASE WHEN p_actors[v_first + i] IS NULL THEN '-' ELSE octet_length(p_actors[v_first + i]) || ':' || p_actors[v_first + i] END,
                    v_time_field), 'UTF8'));
                v_hashes[v_first + i] := v_hash;
                v_ev_stream[v_first + i] := v_stream;
                v_ev_version[v_first + i] := i + 1;
            END LOOP;
            v_fast_stream := v_fast_stream || v_stream;
            v_fast_version := v_fast_version || v_count::bigint;
            v_fast_head := v_fast_head || v_hash;
        END IF;
        v_first := v_first + v_count;
    END LOOP;
    v_first := 1;
    IF cardinality(v_fast_stream) > 0 THEN
        WITH made AS (
            INSERT INTO streams AS s (stream_name, version, head_hash, last_transaction_id, updated_at)
            SELECT f.stream, f.version, f.head, v_xid, v_now
            FROM unnest(v_fast_stream, v_fast_version, v_fast_head) AS f(stream, version, head)
            ORDER BY f.stream
            ON CONFLICT DO NOTHING
            RETURNING s.stream_name
        )
        SELECT coalesce(array_agg(made.stream_name), '{}') INTO v_fast_done FROM made;
    END IF;

    -- The other streams: the new ones created in one statement, then every one locked in one
    -- statement, in name order, skipping those another transaction holds.
    IF v_maybe_new > cardinality(v_fast_done) THEN
    WITH created AS (
        INSERT INTO streams AS s (stream_name, version, head_hash)
        SELECT DISTINCT a.stream, 0::bigint, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
        FROM unnest(p_streams, p_expected) AS a(stream, expected)
        WHERE a.expected <= 0 AND a.stream <> '' AND NOT (a.stream = ANY (v_fast_done))
        ORDER BY a.stream
        ON CONFLICT DO NOTHING
        RETURNING s.stream_name
    )
    SELECT coalesce(array_agg(created.stream_name), '{}') INTO v_new FROM created;
    ELSE
        v_new := '{}';
    END IF;
    IF cardinality(v_fast_done) < v_appends THEN
    SELECT array_agg(l.stream_name), array_agg(l.version), array_agg(l.head_hash), array_agg(l.last_transaction_id)
        INTO v_names, v_versions, v_heads, v_last_xids
        FROM (SELECT s.stream_name, s.version, s.head_hash, s.last_transaction_id FROM streams s
              WHERE s.stream_name = ANY (p_streams) AND NOT (s.stream_name = ANY (v_fast_done))
              ORDER BY s.stream_name FOR NO KEY UPDATE SKIP LOCKED) l;
    END IF;

    FOR a IN 1..v_appends LOOP
        v_stream := p_streams[a];
        v_expected := p_expected[a];
        v_count := greatest(p_counts[a], 0);
        v_hash := NULL;
        v_created := false;
        <<one>>
        BEGIN
            IF v_stream IS NULL OR v_stream = '' OR v_count = 0 THEN
                outcomes[a] := 5;
                EXIT one;
            END IF;
            IF a > 1 AND v_stream = ANY (p_streams[1:a - 1]) THEN
                outcomes[a] := 6;
                EXIT one;
            END IF;
            IF v_expected = 0 AND cardinality(v_fast_stream) > 0 THEN
                IF v_stream = ANY (v_fast_done) THEN
                    outcomes[a] := 0;
                    versions[a] := v_count;
                    EXIT one;
                END IF;
                -- Chained above for a new stream that turned out to exist: not written.
                FOR i IN 0..v_count - 1 LOOP
                    v_ev_version[v_first + i] := NULL;
                END LOOP;
            END IF;
            v_at := array_position(v_names, v_stream);
            IF v_at IS NULL THEN
                -- Locked by another transaction (busy), or missing: only a new stream may be missing.
                IF v_expected > 0 AND NOT EXISTS (SELECT 1 FROM streams s WHERE s.stream_name = v_stream) THEN
                    outcomes[a] := 2;
                    versions[a] := 0;
                ELSE
                    outcomes[a] := 6;
                END IF;
                EXIT one;
            END IF;
            v_version := v_versions[v_at];
            v_hash := v_heads[v_at];
            v_last_xid := v_last_xids[v_at];
            v_created := v_stream = ANY (v_new);

            IF v_known > 0 THEN
                SELECT array_agg(ev.position ORDER BY ev.position), count(*) FILTER (WHERE ev.stream_name = v_stream)
                    INTO v_found, v_stored
                    FROM events ev WHERE ev.event_id = ANY (p_ids[v_first:v_first + v_count - 1]);
                IF v_found IS NOT NULL THEN
                    IF v_stored = v_count AND cardinality(v_found) = v_count THEN
                        outcomes[a] := 1;
                        versions[a] := v_version;
                        FOR i IN 1..v_count LOOP
                            positions[v_first + i - 1] := v_found[i];
                        END LOOP;
                    ELSE
                        outcomes[a] := 3;
                    END IF;
                    EXIT one;
                END IF;
            END IF;

            IF v_expected >= 0 AND v_version <> v_expected THEN
                outcomes[a] := 2;
                versions[a] := v_version;
                EXIT one;
            END IF;
            IF v_last_xid > v_xid THEN
                outcomes[a] := 4;
                EXIT one;
            END IF;

            v_stream_field := event_hash_field(v_stream);
            FOR i IN 0..v_count - 1 LOOP
                v_previous[v_first + i] := v_hash;
                v_version_text := (v_version + i + 1)::text;
                v_data_text := p_data[v_first + i]::text;
                v_hash := sha256(v_hash || convert_to(format(E'%s%s:%s\n36:%s\n%s:%s\n%s:%s\n%s\n%s\n%s\n%s',
                    v_stream_field, octet_length(v_version_text), v_version_text, p_ids[v_first + i],
                    octet_length(p_types[v_first + i]), p_types[v_first + i], octet_length(v_data_text), v_data_text,
                    CASE WHEN p_correlation[v_first + i] IS NULL THEN '-' ELSE '36:' || p_correlation[v_first + i]::text END,
                    CASE WHEN p_causation[v_first + i] IS NULL THEN '-' ELSE '36:' || p_causation[v_first + i]::text END,
                    CASE WHEN p_actors[v_first + i] IS NULL THEN '-' ELSE octet_length(p_actors[v_first + i]) || ':' || p_actors[v_first + i] END,
                    v_time_field), 'UTF8'));
                v_hashes[v_first + i] := v_hash;
                v_ev_stream[v_first + i] := v_stream;
                v_ev_version[v_first + i] := v_version + i + 1;
            END LOOP;
            outcomes[a] := 0;
            versions[a] := v_version + v_count;
            v_up_stream := v_up_stream || v_stream;
            v_up_version := v_up_version || (v_version + v_count);
            v_up_hash := v_up_hash || v_hash;
        END;
        -- A stream this call created for an append it refused goes again (as a rollback would).
        IF v_created AND outcomes[a] <> 0 THEN
            v_undo := v_undo || v_stream;
        END IF;
        v_first := v_first + v_count;
    END LOOP;

    IF cardinality(v_undo) > 0 THEN
        DELETE FROM streams WHERE stream_name = ANY (v_undo) AND version = 0;
    END IF;
    IF cardinality(v_up_stream) = 0 AND cardinality(v_fast_done) = 0 THEN
        RETURN;
    END IF;

    -- Every written event in one INSERT, in append order (positions follow it), and every
    -- stream head in one UPDATE.
    WITH inserted AS (
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                            correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
        SELECT e.stream, e.version, e.id, e.type, e.data, e.correlation, e.causation, e.actor, v_now,
               e.previous_hash, e.hash
        FROM unnest(v_ev_stream, v_ev_version, p_ids, p_types, p_data, p_correlation, p_causation, p_actors,
                    v_previous, v_hashes)
             WITH ORDINALITY AS e(stream, version, id, type, data, correlation, causation, actor,
                                  previous_hash, hash, n)
        WHERE e.version IS NOT NULL
        ORDER BY e.n
        RETURNING events.position
    ), moved AS (
        UPDATE streams SET version = u.version, head_hash = u.hash, last_transaction_id = v_xid, updated_at = v_now
        FROM unnest(v_up_stream, v_up_version, v_up_hash) AS u(stream, version, hash)
        WHERE streams.stream_name = u.stream
        RETURNING 1
    )
    SELECT (SELECT array_agg(inserted.position ORDER BY inserted.position) FROM inserted),
           (SELECT count(*) FROM moved)
        INTO v_inserted, v_stored;

    FOR k IN 1..v_events LOOP
        IF v_ev_version[k] IS NOT NULL THEN
            positions[k] := v_inserted[v_next];
            v_next := v_next + 1;
        END IF;
    END LOOP;
END;
$$;
