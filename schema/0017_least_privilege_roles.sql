-- Least privilege, one role per job (issue 14 item 4):
--   journeys_owner      owns the schema; runs migrations (and `projections rebuild`) only.
--   journeys_app        the API and the workers (grants in the earlier migrations).
--   journeys_projector  the projections and the outbound-webhook follower: reads the log, writes
--                       only the read models, the checkpoints and the outbox. It cannot append to,
--                       change or truncate the events, and cannot ALTER a table (so it cannot
--                       disable the append-only triggers): it owns nothing.
--   journeys_analyst    read-only: the documented analyst_* views over the read models, without
--                       the sealed state, subject references, client references or process ids.
-- The roles are created here when missing (NOLOGIN: give them LOGIN and a password to use them);
-- the embedded cluster creates them beforehand, with passwords. Without CREATEROLE, create them
-- first: CREATE ROLE journeys_projector LOGIN PASSWORD '...'; CREATE ROLE journeys_analyst LOGIN PASSWORD '...'.

DO $$
DECLARE
    v_role text;
BEGIN
    FOREACH v_role IN ARRAY ARRAY['journeys_projector', 'journeys_analyst'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = v_role) THEN
            IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_user AND (rolcreaterole OR rolsuper)) THEN
                RAISE EXCEPTION 'role % does not exist and % may not create roles: create it (CREATE ROLE % LOGIN PASSWORD ''...'') before migrating',
                    v_role, current_user, v_role;
            END IF;
            EXECUTE format('CREATE ROLE %I NOLOGIN', v_role);
        END IF;
    END LOOP;
END;
$$;

-- The projector reads the log and the endpoints, and writes what it folds them into.
GRANT SELECT ON events, streams TO journeys_projector;
GRANT SELECT, INSERT, UPDATE ON projection_checkpoints TO journeys_projector;
GRANT SELECT ON webhook_endpoints TO journeys_projector;
-- The follower maps a journey's actor (a key prefix) to the key's endpoints; never the key hash.
GRANT SELECT (id, prefix) ON api_keys TO journeys_projector;
GRANT SELECT, INSERT ON webhook_deliveries TO journeys_projector;
GRANT SELECT ON schema_migrations TO journeys_projector;

-- The read models' grants and the analyst views, in one function (views schema-qualified: the
-- function's search_path starts with pg_catalog, where nothing may be created): a projection rebuild swaps
-- new tables in (ProjectionRebuilder), drops the analyst views first and calls this again.
CREATE FUNCTION grant_read_models() RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    GRANT SELECT ON journey_state, journey_attempts TO journeys_app;
    GRANT SELECT, INSERT, UPDATE ON journey_state, journey_attempts TO journeys_projector;

    -- One row per journey; no sealed state, subject or client reference, or Unico process id.
    CREATE OR REPLACE VIEW public.analyst_journeys AS
    SELECT journey_id, status, environment, flow, purpose, current_attempt, last_error_code, outcome,
           started_at, captured_at, callback_at, result_at, completed_at, abandoned_at, updated_at,
           token_expires_at, next_due_at, next_due_kind
    FROM journey_state;

    -- One row per attempt (one Unico process, or a failed Create Process); no process id.
    CREATE OR REPLACE VIEW public.analyst_attempts AS
    SELECT journey_id, attempt, requested_at, created_at, token_issued_at, token_expires_at, capture_opened_at,
           callback_at, callback_outcome, sdk_error_code, result_fetched_at, outcome, error
    FROM journey_attempts;

    -- How far each follower of the log has read.
    CREATE OR REPLACE VIEW public.analyst_projections AS
    SELECT name, position, updated_at FROM projection_checkpoints;

    COMMENT ON VIEW analyst_journeys IS 'One row per journey (README: Database roles, data dictionary).';
    COMMENT ON VIEW analyst_attempts IS 'One row per attempt of a journey (README: Database roles, data dictionary).';
    COMMENT ON VIEW analyst_projections IS 'Each follower of the event log and how far it has read.';
    GRANT SELECT ON analyst_journeys, analyst_attempts, analyst_projections TO journeys_analyst;
END;
$$;
REVOKE ALL ON FUNCTION grant_read_models() FROM PUBLIC;

SELECT grant_read_models();
