import Postgres

/// Every statement the test support runs as superuser: the template database of ``TestTemplate``
/// and the sessions a test waits for.
///
/// DDL takes no binds, so the database statements are raw text for `execute(unsafeSQL:)`, with
/// the names quoted here; the rest bind their values.
enum JourneyTestingStatements {
    /// Session-level: held until ``unlock(_:)`` or the session ends.
    static func lock(_ key: Int64) -> PostgresQuery { "SELECT pg_advisory_lock(\(key))" }
    static func unlock(_ key: Int64) -> PostgresQuery { "SELECT pg_advisory_unlock(\(key))" }

    /// One row when the database exists: whether it is a complete template.
    static func isTemplate(_ database: String) -> PostgresQuery {
        "SELECT datistemplate FROM pg_database WHERE datname = \(database)"
    }

    static func dropDatabase(_ database: String) -> String {
        "DROP DATABASE IF EXISTS \(quoted(database)) WITH (FORCE)"
    }

    static func createDatabase(_ database: String, owner: String) -> String {
        "CREATE DATABASE \(quoted(database)) OWNER \(owner)"
    }

    /// A copy of `template` (the template must have no sessions). `FILE_COPY` copies the files
    /// instead of writing every page to the WAL (`WAL_LOG`, the default): 22 ms of CPU against 32 ms
    /// per copy and drop of the ~9 MB template on tmpfs; its checkpoints cost little without fsync.
    static func copyDatabase(_ database: String, template: String, owner: String) -> String {
        """
        CREATE DATABASE \(quoted(database)) \
        TEMPLATE \(quoted(template)) OWNER \(owner) STRATEGY FILE_COPY
        """
    }

    /// Marks a built template complete and closes it to new sessions.
    static func markTemplate(_ database: String) -> String {
        "ALTER DATABASE \(quoted(database)) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
    }

    /// Ends every other session on the database.
    static func terminateSessions(_ database: String) -> PostgresQuery {
        """
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(database) AND pid <> pg_backend_pid()
        """
    }

    /// How many sessions of `database` listen on `channel` (their last statement a finished LISTEN on it).
    static func listeners(_ database: String, channel: String) -> PostgresQuery {
        """
        SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = \(database) AND state = 'idle' AND query ILIKE 'LISTEN %' AND strpos(query, \(channel)) > 0
        """
    }

    private static func quoted(_ name: String) -> String { PostgresConnection.quoteIdentifier(name) }
}
