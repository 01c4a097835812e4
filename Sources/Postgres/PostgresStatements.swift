/// The statements the client itself runs: transaction control and LISTEN/NOTIFY.
enum PostgresStatements {
    /// `BEGIN`, with `ISOLATION LEVEL <isolation>` when given (raw text, from the caller's code).
    static func begin(isolation: String?) -> String {
        isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN"
    }

    static let commit = "COMMIT"
    static let rollback = "ROLLBACK"

    /// Drops one of this connection's named prepared statements.
    static func deallocate(_ name: String) -> String {
        "DEALLOCATE \(PostgresConnection.quoteIdentifier(name))"
    }

    /// The port the server accepted this session on (NULL over a Unix socket) and the process
    /// serving it.
    static let serverIdentity: PostgresQuery = "SELECT inet_server_port() AS port, pg_backend_pid() AS pid"

    /// LISTEN takes no bind: the channel is quoted as an identifier.
    static func listen(_ channel: String) -> String {
        "LISTEN \(PostgresConnection.quoteIdentifier(channel))"
    }

    /// How far a hot standby's replay is behind: 0 on a primary or when all received WAL is
    /// replayed, otherwise the age of the last replayed transaction.
    static let standbyLag: PostgresQuery = """
        SELECT pg_is_in_recovery() AS standby,
               (CASE WHEN NOT pg_is_in_recovery() THEN 0
                     WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                     ELSE coalesce(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 0)
                END)::float8 AS lag_seconds
        """

    /// Notifies through `pg_notify`, channel and payload as binds.
    static func notify(_ channel: String, payload: String) -> PostgresQuery {
        "SELECT pg_notify(\(channel), \(payload))"
    }
}
