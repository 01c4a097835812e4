-- Per-tenant analysts (issue 23 item 6). The analyst views gain the journey's `tenant`, and the
-- read models they show and the daily rollups get row-level security:
--   journeys_app, journeys_projector  every row (policy `service_roles`, USING (true): the planner
--                                     drops a constant-true qual, so reports and projections run as before);
--   journeys_analyst                  every row of every tenant, read-only, as before;
--   a tenant analyst                  only its tenant's rows: a login role mapped to one tenant in
--                                     `analyst_tenants` by grant_tenant_analyst(role, tenant)
--                                     (`journeys tenants analyst grant`), with one policy per table
--                                     holding the tenant as a literal;
--   any other role (not the owner)    no row, whatever it was granted.
-- The owner bypasses the policies (it owns the tables; no FORCE), as migrations, rebuilds and
-- retention need. The views are `security_invoker`, so the policies of the reading role apply
-- through them; the roles read the views' columns of the tables by column-level grants.
-- A projection rebuild swaps fresh tables in and calls grant_read_models() again, which applies all of this.

CREATE TABLE analyst_tenants (
    role_name  name        PRIMARY KEY,
    tenant     text        NOT NULL REFERENCES tenants (name),
    granted_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE analyst_tenants IS 'Login roles confined to one tenant''s rows of the analyst views and rollups (grant_tenant_analyst).';

-- Recreated with the tenant column by grant_read_models() below.
DROP VIEW analyst_journeys, analyst_attempts;

-- The column lists the analyst views show (and the analysts may read in the tables beneath).
CREATE FUNCTION analyst_columns(p_table text) RETURNS text LANGUAGE sql IMMUTABLE
    RETURN CASE p_table
        WHEN 'journey_state' THEN 'journey_id, tenant, status, environment, flow, purpose, current_attempt, last_error_code, outcome, '
            || 'started_at, captured_at, callback_at, result_at, completed_at, abandoned_at, updated_at, token_expires_at, next_due_at, next_due_kind'
        WHEN 'journey_attempts' THEN 'journey_id, attempt, requested_at, created_at, token_issued_at, token_expires_at, capture_opened_at, '
            || 'callback_at, callback_outcome, sdk_error_code, result_fetched_at, outcome, error'
    END;

-- The tables under row-level security.
CREATE FUNCTION analyst_secured_tables() RETURNS text[] LANGUAGE sql IMMUTABLE
    RETURN ARRAY['journey_state', 'journey_attempts', 'journey_daily', 'journey_daily_sdk_errors',
                 'journey_daily_time_to_result', 'journey_daily_result_bins'];

-- Grants, policies and views of every tenant analyst in `analyst_tenants` (idempotent). A
-- tenant analyst's policy on journey_attempts keeps the attempts of its tenant's journeys.
CREATE FUNCTION apply_tenant_analysts() RETURNS void LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp SET client_min_messages = warning AS $$
DECLARE
    v_analyst record;
    v_table text;
    v_policy text;
BEGIN
    FOR v_analyst IN SELECT a.role_name, a.tenant, r.oid FROM analyst_tenants a JOIN pg_roles r ON r.rolname = a.role_name LOOP
        v_policy := 'tenant_analyst_' || v_analyst.oid;
        EXECUTE format('GRANT SELECT (%s) ON public.journey_state TO %I', analyst_columns('journey_state'), v_analyst.role_name);
        EXECUTE format('GRANT SELECT (%s) ON public.journey_attempts TO %I', analyst_columns('journey_attempts'), v_analyst.role_name);
        FOREACH v_table IN ARRAY analyst_secured_tables() LOOP
            IF v_table NOT IN ('journey_state', 'journey_attempts') THEN
                EXECUTE format('GRANT SELECT ON public.%I TO %I', v_table, v_analyst.role_name);
            END IF;
            EXECUTE format('DROP POLICY IF EXISTS %I ON public.%I', v_policy, v_table);
            IF v_table = 'journey_attempts' THEN
                EXECUTE format('CREATE POLICY %I ON public.journey_attempts FOR SELECT TO %I USING '
                               '(journey_id IN (SELECT s.journey_id FROM public.journey_state s WHERE s.tenant = %L))',
                               v_policy, v_analyst.role_name, v_analyst.tenant);
            ELSE
                EXECUTE format('CREATE POLICY %I ON public.%I FOR SELECT TO %I USING (tenant = %L)',
                               v_policy, v_table, v_analyst.role_name, v_analyst.tenant);
            END IF;
        END LOOP;
        EXECUTE format('GRANT SELECT ON public.analyst_journeys, public.analyst_attempts TO %I', v_analyst.role_name);
    END LOOP;
END;
$$;
REVOKE ALL ON FUNCTION apply_tenant_analysts() FROM PUBLIC;

-- The read models' grants, row-level security and the analyst views (replaces 0017's).
CREATE OR REPLACE FUNCTION grant_read_models() RETURNS void LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp SET client_min_messages = warning AS $$
DECLARE
    v_table text;
BEGIN
    GRANT SELECT ON journey_state, journey_attempts TO journeys_app;
    GRANT SELECT, INSERT, UPDATE ON journey_state, journey_attempts TO journeys_projector;
    EXECUTE format('GRANT SELECT (%s) ON public.journey_state TO journeys_analyst', analyst_columns('journey_state'));
    EXECUTE format('GRANT SELECT (%s) ON public.journey_attempts TO journeys_analyst', analyst_columns('journey_attempts'));

    FOREACH v_table IN ARRAY analyst_secured_tables() LOOP
        EXECUTE format('ALTER TABLE public.%I ENABLE ROW LEVEL SECURITY', v_table);
        EXECUTE format('DROP POLICY IF EXISTS service_roles ON public.%I', v_table);
        EXECUTE format('CREATE POLICY service_roles ON public.%I TO journeys_app, journeys_projector, journeys_analyst '
                       'USING (true) WITH CHECK (true)', v_table);
    END LOOP;

    -- One row per journey; no sealed state, subject or client reference, or Unico process id.
    EXECUTE format('CREATE OR REPLACE VIEW public.analyst_journeys WITH (security_invoker = true) AS SELECT %s FROM public.journey_state',
                   analyst_columns('journey_state'));

    -- One row per attempt (one Unico process, or a failed Create Process) with its journey's tenant; no process id.
    CREATE OR REPLACE VIEW public.analyst_attempts WITH (security_invoker = true) AS
    SELECT a.journey_id, s.tenant, a.attempt, a.requested_at, a.created_at, a.token_issued_at, a.token_expires_at,
           a.capture_opened_at, a.callback_at, a.callback_outcome, a.sdk_error_code, a.result_fetched_at, a.outcome, a.error
    FROM public.journey_attempts a JOIN public.journey_state s ON s.journey_id = a.journey_id;

    -- How far each follower of the log has read.
    CREATE OR REPLACE VIEW public.analyst_projections AS
    SELECT name, position, updated_at FROM projection_checkpoints;

    COMMENT ON VIEW analyst_journeys IS 'One row per journey (README: Database roles, data dictionary).';
    COMMENT ON VIEW analyst_attempts IS 'One row per attempt of a journey (README: Database roles, data dictionary).';
    COMMENT ON VIEW analyst_projections IS 'Each follower of the event log and how far it has read.';
    GRANT SELECT ON analyst_journeys, analyst_attempts, analyst_projections TO journeys_analyst;
    PERFORM apply_tenant_analysts();
END;
$$;
REVOKE ALL ON FUNCTION grant_read_models() FROM PUBLIC;

-- Confines an existing login role to one tenant's rows (run as the schema's owner). A role that
-- would see more anyway (superuser, BYPASSRLS, the owner, or a member of a service role) is refused.
CREATE FUNCTION grant_tenant_analyst(p_role name, p_tenant text) RETURNS void LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp SET client_min_messages = warning AS $$
DECLARE
    v_role pg_roles;
    v_service text;
BEGIN
    SELECT * INTO v_role FROM pg_roles WHERE rolname = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % does not exist: create it first (as a superuser: CREATE ROLE % LOGIN PASSWORD ''...'')',
            p_role, quote_ident(p_role) USING ERRCODE = 'undefined_object';
    END IF;
    IF v_role.rolsuper OR v_role.rolbypassrls THEN
        RAISE EXCEPTION 'role % is a superuser or bypasses row-level security: it cannot be confined to a tenant', p_role
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOREACH v_service IN ARRAY ARRAY['journeys_owner', 'journeys_app', 'journeys_projector', 'journeys_analyst'] LOOP
        CONTINUE WHEN NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = v_service);
        IF pg_has_role(p_role, v_service, 'MEMBER') THEN
            RAISE EXCEPTION 'role % is or belongs to %, which reads every tenant: use a role of its own', p_role, v_service
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END LOOP;
    IF NOT EXISTS (SELECT 1 FROM tenants WHERE name = p_tenant) THEN
        RAISE EXCEPTION 'tenant % does not exist (journeys tenants list)', p_tenant USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO analyst_tenants (role_name, tenant) VALUES (p_role, p_tenant)
    ON CONFLICT (role_name) DO UPDATE SET tenant = EXCLUDED.tenant, granted_at = now();
    PERFORM apply_tenant_analysts();
END;
$$;
REVOKE ALL ON FUNCTION grant_tenant_analyst(name, text) FROM PUBLIC;

-- Takes a tenant analyst's policies and grants away (the role itself stays; drop it as a superuser).
CREATE FUNCTION revoke_tenant_analyst(p_role name) RETURNS boolean LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp SET client_min_messages = warning AS $$
DECLARE
    v_oid oid;
    v_table text;
BEGIN
    DELETE FROM analyst_tenants WHERE role_name = p_role;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    SELECT oid INTO v_oid FROM pg_roles WHERE rolname = p_role;
    IF v_oid IS NULL THEN
        RETURN true;
    END IF;
    FOREACH v_table IN ARRAY analyst_secured_tables() LOOP
        EXECUTE format('DROP POLICY IF EXISTS %I ON public.%I', 'tenant_analyst_' || v_oid, v_table);
        EXECUTE format('REVOKE ALL ON public.%I FROM %I', v_table, p_role);
    END LOOP;
    EXECUTE format('REVOKE ALL ON public.analyst_journeys, public.analyst_attempts FROM %I', p_role);
    RETURN true;
END;
$$;
REVOKE ALL ON FUNCTION revoke_tenant_analyst(name) FROM PUBLIC;

SELECT grant_read_models();
