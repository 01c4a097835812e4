import Postgres

/// Every statement over `schema_migrations` and the migrators' advisory lock.
enum MigrationsStatements {
    /// Serializes migrators until the end of the transaction (simple protocol). Transaction-level,
    /// never session-level: through PgBouncer in transaction mode a session lock would stay on
    /// whichever server connection ran it.
    static let lock = "SELECT pg_advisory_xact_lock(7411232001)"

    /// Creates the bookkeeping table and lets the application role read it (simple protocol).
    static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    integer PRIMARY KEY,
            name       text NOT NULL UNIQUE,
            checksum   text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        );
        DO $$
        BEGIN
            -- The application checks that its schema is current (readiness).
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'journeys_app') THEN
                GRANT SELECT ON schema_migrations TO journeys_app;
            END IF;
        END;
        $$;
        """

    static let tableExists: PostgresQuery = "SELECT to_regclass('schema_migrations') IS NOT NULL AS present"

    static let applied: PostgresQuery = "SELECT name, checksum FROM schema_migrations"

    static func recordApplied(version: Int, name: String, checksum: String) -> PostgresQuery {
        """
        INSERT INTO schema_migrations (version, name, checksum) \
        VALUES (\(version), \(name), \(checksum))
        """
    }

    // MARK: - Roles (RoleCatalog)

    /// The connected role's fitness as the projector: its name, whether it may write the read
    /// models, checkpoints and outbox (and read the log), and whether it may write, truncate or
    /// alter the event log (superuser, a grant, or membership in the log's owner).
    static let projectorFitness: PostgresQuery = """
        SELECT current_user::text,
               has_table_privilege('journey_state', 'INSERT') AND has_table_privilege('journey_state', 'UPDATE')
                 AND has_table_privilege('journey_attempts', 'INSERT') AND has_table_privilege('projection_checkpoints', 'UPDATE')
                 AND has_table_privilege('webhook_deliveries', 'INSERT') AND has_table_privilege('events', 'SELECT'),
               r.rolsuper OR has_table_privilege('events', 'INSERT') OR has_table_privilege('events', 'UPDATE')
                 OR has_table_privilege('events', 'TRUNCATE') OR pg_has_role(c.relowner, 'USAGE')
        FROM pg_roles r, pg_class c
        WHERE r.rolname = current_user AND c.oid = to_regclass('events')
        """

    /// The roles of `names` that exist: attributes, CREATE on schema public, relations owned.
    static func roles(_ names: String) -> PostgresQuery {
        """
        SELECT r.rolname::text, r.rolcanlogin, r.rolsuper, r.rolcreaterole,
               has_schema_privilege(r.oid, 'public', 'CREATE'),
               (SELECT count(*) FROM pg_class c
                WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'p')
                  AND pg_has_role(r.oid, c.relowner, 'USAGE'))
        FROM pg_roles r, json_array_elements_text(\(names)::json) WITH ORDINALITY AS n(name, i)
        WHERE r.rolname = n.name ORDER BY n.i
        """
    }

    /// Per role of `names` and table or view of schema public that it does not own: the table
    /// privileges it holds, and its column grants where it lacks the table-wide privilege.
    static func relationPrivileges(_ names: String) -> PostgresQuery {
        """
        SELECT r.rolname::text, c.relname::text, CASE c.relkind WHEN 'v' THEN 'view' ELSE 'table' END,
               coalesce((SELECT string_agg(p.name, ', ' ORDER BY p.i)
                         FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) WITH ORDINALITY AS p(name, i)
                         WHERE has_table_privilege(r.oid, c.oid, p.name)), ''),
               coalesce((SELECT string_agg(g.privilege_type || ' (' || g.columns || ')', ', ' ORDER BY g.privilege_type)
                         FROM (SELECT x.privilege_type, string_agg(a.attname::text, ', ' ORDER BY a.attnum) AS columns
                               FROM pg_attribute a, aclexplode(a.attacl) x
                               WHERE a.attrelid = c.oid AND a.attacl IS NOT NULL AND x.grantee = r.oid
                                 AND NOT has_table_privilege(r.oid, c.oid, x.privilege_type)
                               GROUP BY x.privilege_type) g), '')
        FROM pg_roles r, pg_class c
        WHERE r.rolname IN (SELECT json_array_elements_text(\(names)::json))
          AND c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v', 'p')
          AND NOT pg_has_role(r.oid, c.relowner, 'USAGE')
        ORDER BY r.rolname, c.relname
        """
    }

    /// Per role of `names`: the SECURITY DEFINER functions of schema public it may call (they run
    /// with their owner's rights) and that it does not own.
    static func definerFunctions(_ names: String) -> PostgresQuery {
        """
        SELECT r.rolname::text, p.oid::regprocedure::text
        FROM pg_roles r, pg_proc p
        WHERE r.rolname IN (SELECT json_array_elements_text(\(names)::json))
          AND p.pronamespace = 'public'::regnamespace AND p.prosecdef
          AND has_function_privilege(r.oid, p.oid, 'EXECUTE') AND NOT pg_has_role(r.oid, p.proowner, 'USAGE')
        ORDER BY r.rolname, p.proname
        """
    }
}
