-- Event store: streams, the append-only hash-chained event log, and its global order.
-- The application role `journeys_app` reads and appends through `append_events` only.

CREATE TABLE streams (
    stream_name text PRIMARY KEY,
    version     bigint NOT NULL CHECK (version >= 0),
    head_hash   bytea NOT NULL,
    -- The transaction that last appended; a later append must have a higher one (see below).
    last_transaction_id xid8 NOT NULL DEFAULT '0',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE events (
    -- Unique by construction (an identity); no b-tree: a BRIN index serves lookups by
    -- position at a fraction of the write cost, since positions follow insertion order.
    position       bigint GENERATED ALWAYS AS IDENTITY,
    transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_name    text NOT NULL,
    stream_version bigint NOT NULL CHECK (stream_version >= 1),
    event_id       uuid NOT NULL,
    event_type     text NOT NULL CHECK (event_type <> ''),
    data           jsonb NOT NULL,
    correlation_id uuid,
    causation_id   uuid,
    actor          text,
    recorded_at    timestamptz NOT NULL,
    previous_hash  bytea NOT NULL,
    hash           bytea NOT NULL,
    CONSTRAINT events_stream_version_key UNIQUE (stream_name, stream_version),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);

-- Readers follow (transaction_id, position) below the oldest running transaction.
CREATE INDEX events_global_order ON events (transaction_id, position);
CREATE INDEX events_position ON events USING brin (position);
CREATE INDEX events_correlation ON events (correlation_id) WHERE correlation_id IS NOT NULL;

-- Append-only, for every role including the owner: statement triggers refuse UPDATE and
-- DELETE, and a BEFORE TRUNCATE trigger covers what DELETE triggers do not.
CREATE FUNCTION refuse_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_event_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_event_change();

-- One length-prefixed field of the canonical form; NULL is '-'.
CREATE FUNCTION event_hash_field(value text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN value IS NULL THEN '-' ELSE octet_length(value) || ':' || value END || E'\n'
$$;

-- sha256(previous_hash || canonical content). Verifiers recompute it outside the database.
-- STABLE, not IMMUTABLE: the body uses stable casts, and a SQL function is only inlined when
-- declared no stricter than its body (inlined: ~6 us a call; not inlined: ~120 us).
CREATE FUNCTION event_hash(
    previous_hash bytea, stream_name text, stream_version bigint, event_id uuid, event_type text,
    data jsonb, correlation_id uuid, causation_id uuid, actor text, recorded_at timestamptz
) RETURNS bytea LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT sha256(previous_hash || convert_to(
        event_hash_field(stream_name) || event_hash_field(stream_version::text) ||
        event_hash_field(event_id::text) || event_hash_field(event_type) ||
        event_hash_field(data::text) || event_hash_field(correlation_id::text) ||
        event_hash_field(causation_id::text) || event_hash_field(actor) ||
        event_hash_field((extract(epoch FROM recorded_at) * 1000000)::bigint::text), 'UTF8'))
$$;

-- Appends events to one stream; the arrays hold one element per event, in order.
--   p_expected: -1 any version, 0 no stream yet, n the stream's current version.
-- Returns the positions written and the stream's new version. When every event id is already
-- stored in this stream, returns the first write's positions (idempotent retry). The expected
-- version is checked before any position is drawn. It does not NOTIFY: a NOTIFY inside the
-- append would make every append commit one at a time (PostgreSQL serializes committing
-- notifiers on one lock, WAL flush included); writers NOTIFY `journeys_events` after commit.
CREATE FUNCTION append_events(
    p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_data jsonb[],
    p_correlation uuid[], p_causation uuid[], p_actors text[]
) RETURNS TABLE (positions bigint[], version bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_count    int := coalesce(cardinality(p_ids), 0);
    v_version  bigint;
    v_last_xid xid8;
    v_hash     bytea;
    v_previous bytea;
    v_now      timestamptz := clock_timestamp();
    v_existing bigint[];
    v_stored   bigint;
    v_previous_hashes bytea[] := '{}';
    v_hashes   bytea[] := '{}';
    v_out      bigint[];
BEGIN
    IF p_stream IS NULL OR p_stream = '' THEN
        RAISE EXCEPTION 'stream name is empty' USING ERRCODE = 'JS001';
    END IF;
    IF v_count = 0 OR cardinality(p_types) <> v_count OR cardinality(p_data) <> v_count
       OR cardinality(p_correlation) <> v_count OR cardinality(p_causation) <> v_count
       OR cardinality(p_actors) <> v_count THEN
        RAISE EXCEPTION 'no events to append, or event fields of unequal length' USING ERRCODE = 'JS002';
    END IF;

    SELECT s.version, s.head_hash, s.last_transaction_id INTO v_version, v_hash, v_last_xid
        FROM streams s WHERE s.stream_name = p_stream FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        INSERT INTO streams (stream_name, version, head_hash)
            VALUES (p_stream, 0, '\x0000000000000000000000000000000000000000000000000000000000000000')
            ON CONFLICT DO NOTHING;
        SELECT s.version, s.head_hash, s.last_transaction_id INTO v_version, v_hash, v_last_xid
        FROM streams s WHERE s.stream_name = p_stream FOR NO KEY UPDATE;
    END IF;

    SELECT array_agg(ev.position ORDER BY ev.position), count(*) FILTER (WHERE ev.stream_name = p_stream)
        INTO v_existing, v_stored
        FROM events ev WHERE ev.event_id = ANY (p_ids);
    IF v_existing IS NOT NULL THEN
        IF v_stored = v_count AND cardinality(v_existing) = v_count THEN
            RETURN QUERY SELECT v_existing, v_version;
            RETURN;
        END IF;
        RAISE EXCEPTION 'event id already stored in another append' USING ERRCODE = 'JS003';
    END IF;

    IF p_expected >= 0 AND v_version <> p_expected THEN
        RAISE EXCEPTION 'wrong expected version for stream'
            USING ERRCODE = 'JS004', DETAIL = format('expected %s, current %s', p_expected, v_version);
    END IF;

    -- Readers order by (transaction id, position). A transaction whose id was drawn before an
    -- earlier write (e.g. another row written first) could sort before a newer transaction
    -- that already appended to this stream; refuse it so per-stream order always holds.
    IF v_last_xid > pg_current_xact_id() THEN
        RAISE EXCEPTION 'stream was appended by a newer transaction; retry the transaction'
            USING ERRCODE = 'serialization_failure';
    END IF;

    -- Chain the hashes in order, then insert every row in one statement.
    FOR i IN 1..v_count LOOP
        v_previous := v_hash;
        v_hash := event_hash(v_previous, p_stream, v_version + i, p_ids[i], p_types[i], p_data[i],
                             p_correlation[i], p_causation[i], p_actors[i], v_now);
        v_previous_hashes[i] := v_previous;
        v_hashes[i] := v_hash;
    END LOOP;

    WITH inserted AS (
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data,
                            correlation_id, causation_id, actor, recorded_at, previous_hash, hash)
        SELECT p_stream, v_version + e.n, e.id, e.type, e.data, e.correlation, e.causation, e.actor, v_now,
               e.previous_hash, e.hash
        FROM unnest(p_ids, p_types, p_data, p_correlation, p_causation, p_actors, v_previous_hashes, v_hashes)
             WITH ORDINALITY AS e(id, type, data, correlation, causation, actor, previous_hash, hash, n)
        ORDER BY e.n
        RETURNING events.position
    )
    SELECT array_agg(inserted.position ORDER BY inserted.position) INTO v_out FROM inserted;
    v_version := v_version + v_count;

    UPDATE streams SET version = v_version, head_hash = v_hash, last_transaction_id = pg_current_xact_id(),
        updated_at = v_now WHERE stream_name = p_stream;
    RETURN QUERY SELECT v_out, v_version;
END;
$$;

-- Least privilege: the application reads, and appends only through append_events.
REVOKE ALL ON FUNCTION append_events(text, bigint, uuid[], text[], jsonb[], uuid[], uuid[], text[]) FROM PUBLIC;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'journeys_app') THEN
        RAISE EXCEPTION 'role journeys_app does not exist: create it (CREATE ROLE journeys_app LOGIN) before migrating';
    END IF;
END;
$$;
GRANT SELECT ON streams, events TO journeys_app;
GRANT EXECUTE ON FUNCTION append_events(text, bigint, uuid[], text[], jsonb[], uuid[], uuid[], text[]) TO journeys_app;
GRANT EXECUTE ON FUNCTION event_hash(bytea, text, bigint, uuid, text, jsonb, uuid, uuid, text, timestamptz) TO journeys_app;
