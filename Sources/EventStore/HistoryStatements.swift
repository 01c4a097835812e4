import Postgres

/// The statements of ``EventStore``'s history reads (`EventStore+History.swift`); values are binds.
///
/// Cuts are compared as `(transaction_id, position) <= ($1::xid8, $2)`: the transaction id is
/// bound as text and cast, so it compares as a number (never 1000 before 999). Output columns
/// holding its text are aliased so that `ORDER BY events.transaction_id` sorts the xid8 column.
enum HistoryStatements {
    /// The last event below the MVCC horizon in the global order.
    static let lastReadable: PostgresQuery = """
        SELECT transaction_id::text AS transaction_id_text, position FROM events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id DESC, events.position DESC LIMIT 1
        """

    static func eventCount(upTo cut: GlobalCheckpoint) -> PostgresQuery {
        """
        SELECT count(*) FROM events WHERE (transaction_id, position) <= (\(String(cut.transactionID))::xid8, \(cut.position))
        """
    }

    /// Name, version and hash of each stream's last event at or before `cut`, by stream name.
    static func streamHeads(upTo cut: GlobalCheckpoint) -> PostgresQuery {
        """
        SELECT DISTINCT ON (stream_name) stream_name, stream_version, hash FROM events
        WHERE (transaction_id, position) <= (\(String(cut.transactionID))::xid8, \(cut.position))
        ORDER BY stream_name, stream_version DESC
        """
    }

    /// Version and hash of the stream's last event at or before `cut`.
    static func streamHead(of stream: StreamName, upTo cut: GlobalCheckpoint) -> PostgresQuery {
        """
        SELECT stream_version, hash FROM events
        WHERE stream_name = \(stream.rawValue) AND (transaction_id, position) <= (\(String(cut.transactionID))::xid8, \(cut.position))
        ORDER BY stream_version DESC LIMIT 1
        """
    }

    /// The stream's first event in the global order.
    static func firstEvent(of stream: StreamName) -> PostgresQuery {
        """
        SELECT transaction_id::text AS transaction_id_text, position FROM events
        WHERE stream_name = \(stream.rawValue)
        ORDER BY events.transaction_id, events.position LIMIT 1
        """
    }
}
