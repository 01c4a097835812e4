-- Hardening (issue 14 item 8): a SECURITY DEFINER function runs with its owner's rights, so it
-- must not resolve names through a schema its caller can write to. Every such function gets
-- `search_path = pg_catalog, public, pg_temp` (pg_catalog first: no shadowing of built-ins), and
-- nobody but the schema's owner may CREATE in `public` (PostgreSQL 15's default; needed before).

DO $$
DECLARE
    v_function regprocedure;
BEGIN
    FOR v_function IN
        SELECT p.oid::regprocedure FROM pg_proc p
        WHERE p.prosecdef AND p.pronamespace = 'public'::regnamespace
    LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = pg_catalog, public, pg_temp', v_function);
    END LOOP;
END;
$$;

REVOKE CREATE ON SCHEMA public FROM PUBLIC;
