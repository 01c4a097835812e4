-- Event types by stream prefix and well-formed actors (issue 23): the SECURITY DEFINER append
-- functions, the only way to write the log, refuse
--   JS005  an event type the stream does not take: `journey-*` streams take the journey event
--          types (JourneyEvent.allEventTypes; a test compares the two lists), `unico-webhooks`
--          takes UnmatchedWebhookReceived; other streams (the benchmark's, tests', `journeys
--          events append`'s) take any well-formed type;
--   JS006  a malformed actor.
-- Well formed (a type, or an actor other than NULL): 1-100 characters starting with an ASCII
-- letter, without whitespace, control or invisible characters, quotes, backslash, braces, commas
-- or '@' (`api-key:abcd2345`, `worker`, `cli`, `retention` are; an e-mail address is not).
-- append_events checks once per call, before it touches a stream (one inlined expression: a
-- regular expression over each array's text form and an array containment); append_events_group
-- checks each append and does not take a refused one (outcome 6, "append it alone"), so the
-- direct path refuses it with the same code and the others of the group are written.
-- Otherwise both functions are 0036's and 0037's, unchanged.

-- The journey event types append_events accepts on a `journey-*` stream (for the test that
-- compares them with the domain's list).
CREATE FUNCTION journey_event_types() RETURNS text[] LANGUAGE sql IMMUTABLE
    RETURN ARRAY['JourneyStarted', 'ProcessCreationRequested', 'ProcessCreated', 'ProcessCreationFailed', 'TokenIssued', 'CaptureOpened', 'CallbackReceived', 'WebhookReceived', 'ResultPending', 'ResultFetched', 'TokenExpired', 'AttemptFailed', 'JourneyCompleted', 'JourneyAbandoned', 'RetryAllowed', 'CaptureClosedByUser', 'CaptureSessionTimedOut', 'LinkIssued', 'SubjectErased', 'PersonalDataDisclosed', 'JourneyCancelled']::text[];

CREATE FUNCTION append_events_refusal(p_stream text, p_types text[], p_actors text[]) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    -- On the arrays' text form: an element with whitespace, a comma, quote, brace or backslash,
    -- or an empty one, is quoted there (and refused); a NULL element prints as NULL. The length
    -- is a separate search (a bounded repeat in the main expression costs 10 times as much).
    RETURN CASE
        WHEN p_types::text !~ '^\{[A-Za-z][^,{}"\\\x01-\x20\x7f@\u0080-\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]*(,[A-Za-z][^,{}"\\\x01-\x20\x7f@\u0080-\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]*)*\}$'
            OR p_types::text ~ '[^,{}]{101}' OR array_position(p_types, NULL) IS NOT NULL THEN 'JS005'
        WHEN starts_with(p_stream, 'journey-') AND NOT (p_types <@ journey_event_types()) THEN 'JS005'
        WHEN p_stream = 'unico-webhooks' AND NOT (p_types <@ ARRAY['UnmatchedWebhookReceived']::text[]) THEN 'JS005'
        WHEN p_actors::text !~ '^\{([A-Za-z][^,{}"\\\x01-\x20\x7f@\u0080-\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]*|NULL)(,([A-Za-z][^,{}"\\\x01-\x20\x7f@\u0080-\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]*|NULL))*\}$'
            OR p_actors::text ~ '[^,{}]{101}' THEN 'JS006'
    END;

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

    -- Issue 23: a stream takes only its prefix's event types, and every actor is well formed.
    IF append_events_refusal(p_stream, p_types, p_actors) IS NOT NULL THEN
        IF append_events_refusal(p_stream, p_types, p_actors) = 'JS005' THEN
            RAISE EXCEPTION 'event type not allowed on stream %', p_stream
                USING ERRCODE = 'JS005', HINT = 'journey-* streams take the journey event types, unico-webhooks takes UnmatchedWebhookReceived; a type is 1-100 characters starting with an ASCII letter, without whitespace, control characters, quotes, backslash, braces, commas or @';
        END IF;
        RAISE EXCEPTION 'malformed actor' USING ERRCODE = 'JS006',
            HINT = 'an actor is NULL or 1-100 characters starting with an ASCII letter, without whitespace, control characters, quotes, backslash, braces, commas or @';
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
    v_refused      text[] := '{}';
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
        -- Issue 23: an append whose types do not fit its stream, or with a malformed actor, is
        -- not taken (outcome 6): the direct path refuses it with JS005 or JS006.
        IF v_count > 0 AND append_events_refusal(v_stream, p_types[v_first:v_first + v_count - 1],
                                                 p_actors[v_first:v_first + v_count - 1]) IS NOT NULL THEN
            v_refused := v_refused || v_stream;
        END IF;
        IF p_expected[a] <= 0 THEN
            v_maybe_new := v_maybe_new + 1;
        END IF;
        IF v_known = 0 AND p_expected[a] = 0 AND v_count > 0 AND v_stream <> ''
           AND NOT (v_stream = ANY (p_streams[1:a - 1])) AND NOT (v_stream = ANY (v_refused)) THEN
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
        WHERE a.expected <= 0 AND a.stream <> '' AND NOT (a.stream = ANY (v_fast_done)) AND NOT (a.stream = ANY (v_refused))
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
            IF v_stream = ANY (v_refused) OR (a > 1 AND v_stream = ANY (p_streams[1:a - 1])) THEN
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

-- Retention of the request and delivery records (issue 23): the application role has no DELETE
-- on either table, so retention deletes through these two functions, which delete only rows
-- past their use, oldest first, at most p_limit a call:
--   idempotency keys answered or released (not in progress) before p_before: a replay after that
--   starts a new journey, so the cutoff is long after the stored answer is purged (default 30
--   days, JOURNEYS_RETENTION_IDEMPOTENCY_KEY_DAYS);
--   webhook deliveries delivered or given up before p_before that no resend names (default 30
--   days, JOURNEYS_RETENTION_WEBHOOK_DELIVERY_DAYS); a resend goes first, its original the run after.
CREATE FUNCTION purge_idempotency_keys(p_before timestamptz, p_limit int) RETURNS int
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
BEGIN ATOMIC
    WITH due AS (
        SELECT api_key_id, key FROM idempotency_keys
        WHERE state <> 'in_progress' AND completed_at < p_before
        ORDER BY completed_at LIMIT p_limit
        FOR UPDATE SKIP LOCKED
    ), gone AS (
        DELETE FROM idempotency_keys k USING due
        WHERE k.api_key_id = due.api_key_id AND k.key = due.key AND k.state <> 'in_progress'
        RETURNING 1
    )
    SELECT count(*)::int FROM gone;
END;
REVOKE ALL ON FUNCTION purge_idempotency_keys(timestamptz, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_idempotency_keys(timestamptz, int) TO journeys_app;

CREATE FUNCTION purge_webhook_deliveries(p_before timestamptz, p_limit int) RETURNS int
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
BEGIN ATOMIC
    WITH due AS (
        SELECT d.id FROM webhook_deliveries d
        WHERE (d.delivered_at IS NOT NULL OR d.given_up_at IS NOT NULL) AND coalesce(d.delivered_at, d.given_up_at) < p_before
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.resend_of = d.id)
        ORDER BY coalesce(d.delivered_at, d.given_up_at) LIMIT p_limit
        FOR UPDATE OF d SKIP LOCKED
    ), gone AS (
        DELETE FROM webhook_deliveries w USING due WHERE w.id = due.id RETURNING 1
    )
    SELECT count(*)::int FROM gone;
END;
REVOKE ALL ON FUNCTION purge_webhook_deliveries(timestamptz, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION purge_webhook_deliveries(timestamptz, int) TO journeys_app;

-- The purges' and the plan's reads; a resend names its original.
CREATE INDEX webhook_deliveries_resend_of ON webhook_deliveries (resend_of) WHERE resend_of IS NOT NULL;
CREATE INDEX idempotency_keys_done ON idempotency_keys (completed_at) WHERE state <> 'in_progress';
CREATE INDEX webhook_deliveries_done ON webhook_deliveries ((coalesce(delivered_at, given_up_at)))
    WHERE delivered_at IS NOT NULL OR given_up_at IS NOT NULL;
