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
}
