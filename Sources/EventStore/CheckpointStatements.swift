import Postgres

/// The SQL of the checkpoint store (`projection_checkpoints`, schema 0006).
enum CheckpointStatements {
    /// Creates `name`'s row at the start of the log if it does not exist.
    static func create(_ name: String) -> PostgresQuery {
        "INSERT INTO projection_checkpoints (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING"
    }

    /// `name`'s checkpoint, row-locked; with `skipLocked` no row while another transaction holds it.
    static func lock(_ name: String, skipLocked: Bool) -> PostgresQuery {
        """
        SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name) \
        FOR UPDATE\(unsafeSQL: skipLocked ? " SKIP LOCKED" : "")
        """
    }

    static func store(_ name: String, _ checkpoint: GlobalCheckpoint) -> PostgresQuery {
        """
        UPDATE projection_checkpoints SET transaction_id = \(String(checkpoint.transactionID))::xid8,
            position = \(checkpoint.position), updated_at = now() WHERE name = \(name)
        """
    }

    static func read(_ name: String) -> PostgresQuery {
        "SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name)"
    }

    /// Every checkpoint with the readable events after it: count and age of the oldest.
    static let statuses: PostgresQuery = """
        SELECT c.name, c.transaction_id::text, c.position, c.updated_at, lag.events,
               COALESCE(EXTRACT(EPOCH FROM (clock_timestamp() - lag.oldest)), 0)::float8
        FROM projection_checkpoints c
        CROSS JOIN LATERAL (
            SELECT count(*) AS events, min(e.recorded_at) AS oldest FROM events e
            WHERE (e.transaction_id, e.position) > (c.transaction_id, c.position)
              AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ) lag
        ORDER BY c.name
        """
}
