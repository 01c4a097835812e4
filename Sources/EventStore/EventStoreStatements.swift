import Postgres

/// Every statement of the event store over `events`, `streams` and `projection_checkpoints`;
/// values are binds.
///
/// Cuts and checkpoints compare as `(transaction_id, position) > ($1::xid8, $2)`: the transaction
/// id is bound as text and cast, so it compares as a number (never 1000 before 999). Output columns
/// holding its text are aliased so that `ORDER BY events.transaction_id` sorts the xid8 column.
enum EventStoreStatements {
    // MARK: - The log (EventStore.swift)

    /// The columns ``RecordedEvent/init(row:)`` reads, by index.
    static let columns = """
        position, transaction_id::text AS transaction_id_text, stream_name, stream_version, event_id, event_type, data, \
        correlation_id, causation_id, actor, recorded_at, previous_hash, hash
        """

    /// `append_events` (schema 0001): positions as `{1,2,3}` text and the stream's new version.
    static func append(_ events: [NewEvent], to stream: StreamName, expectedVersion: ExpectedVersion) -> PostgresQuery {
        """
        SELECT positions, version FROM append_events(\(stream.rawValue), \(expectedVersion.databaseValue), \
        \(events.map(\.id))::uuid[], \(events.map(\.type))::text[], \(events.map(\.data))::jsonb[], \
        \(events.map(\.metadata.correlationID))::uuid[], \(events.map(\.metadata.causationID))::uuid[], \
        \(events.map(\.metadata.actor))::text[])
        """
    }

    /// `append_events_group` (schema 0027): per append an outcome code and version, per event a
    /// position, each as array text (`{0,2}`, NULL where there is none).
    static func appendGroup(_ appends: [GroupedAppend]) -> PostgresQuery {
        let events = appends.flatMap(\.events)
        return """
            SELECT outcomes, versions, positions FROM append_events_group(\(appends.map(\.stream.rawValue))::text[], \
            \(appends.map(\.expected.databaseValue))::bigint[], \(appends.map(\.events.count))::int[], \
            \(events.map(\.id))::uuid[], \(events.map(\.type))::text[], \(events.map(\.data))::jsonb[], \
            \(events.map(\.metadata.correlationID))::uuid[], \(events.map(\.metadata.causationID))::uuid[], \
            \(events.map(\.metadata.actor))::text[])
            """
    }

    /// Up to `limit` events of `stream` with version >= `version`, in order.
    static func readStream(_ stream: StreamName, from version: Int64, limit: Int) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: columns) FROM events
        WHERE stream_name = \(stream.rawValue) AND stream_version >= \(version)
        ORDER BY stream_version LIMIT \(limit)
        """
    }

    /// The first event (version 1) of each of `streams`.
    static func firstEvents(of streams: [String]) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: columns) FROM events
        WHERE stream_name = ANY(\(streams)::text[]) AND stream_version = 1
        """
    }

    static func streamVersion(_ stream: StreamName) -> PostgresQuery {
        "SELECT version FROM streams WHERE stream_name = \(stream.rawValue)"
    }

    /// Up to `limit` events after `checkpoint` below the MVCC horizon, in the global order.
    static func readAll(after checkpoint: GlobalCheckpoint, limit: Int) -> PostgresQuery {
        """
        SELECT \(unsafeSQL: columns) FROM events
        WHERE (transaction_id, position) > (\(String(checkpoint.transactionID))::xid8, \(checkpoint.position))
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id, events.position
        LIMIT \(limit)
        """
    }

    /// `readAll` with the columns ``EventStore/FoldEvent/init(row:)`` reads, by index.
    static func readAllForFold(after checkpoint: GlobalCheckpoint, limit: Int) -> PostgresQuery {
        """
        SELECT position, transaction_id::text AS transaction_id_text, stream_name, stream_version, event_type, data
        FROM events
        WHERE (transaction_id, position) > (\(String(checkpoint.transactionID))::xid8, \(checkpoint.position))
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.transaction_id, events.position
        LIMIT \(limit)
        """
    }

    static func transactionID(atPosition position: Int64) -> PostgresQuery {
        "SELECT transaction_id::text FROM events WHERE position = \(position)"
    }

    /// Every event in the log, readable or not.
    static let eventCount: PostgresQuery = "SELECT count(*) FROM events"

    /// The events below the MVCC horizon (what `readAll` can return).
    static let readableEventCount: PostgresQuery = """
        SELECT count(*) FROM events WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        """

    // MARK: - History at a cut (EventStore+History.swift)

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

    // MARK: - Chain verification (ChainVerifier.swift)

    /// A page of events in (stream, version) order after `cursor`, with each stream's head; the
    /// columns ``ChainRow/init(row:)`` reads, by index.
    static func chainPage(after cursor: (stream: String, version: Int64), limit: Int) -> PostgresQuery {
        """
        SELECT e.stream_name, e.stream_version, e.position, e.event_id::text, e.event_type, e.data::text,
               e.correlation_id::text, e.causation_id::text, e.actor,
               (extract(epoch FROM e.recorded_at) * 1000000)::bigint, e.previous_hash, e.hash,
               s.version, s.head_hash
        FROM events e LEFT JOIN streams s ON s.stream_name = e.stream_name
        WHERE (e.stream_name, e.stream_version) > (\(cursor.stream), \(cursor.version))
        ORDER BY e.stream_name, e.stream_version
        LIMIT \(limit)
        """
    }

    /// A stream whose head records events that are missing.
    static let streamWithoutEvents: PostgresQuery = """
        SELECT s.stream_name FROM streams s
        WHERE s.version > 0 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_name = s.stream_name)
        LIMIT 1
        """

    // MARK: - Checkpoints (CheckpointStore.swift, `projection_checkpoints`, schema 0006)

    /// Creates `name`'s row at the start of the log if it does not exist.
    static func createCheckpoint(_ name: String) -> PostgresQuery {
        "INSERT INTO projection_checkpoints (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING"
    }

    /// `name`'s checkpoint, row-locked; with `skipLocked` no row while another transaction holds it.
    static func lockCheckpoint(_ name: String, skipLocked: Bool) -> PostgresQuery {
        """
        SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name) \
        FOR UPDATE\(unsafeSQL: skipLocked ? " SKIP LOCKED" : "")
        """
    }

    static func storeCheckpoint(_ name: String, _ checkpoint: GlobalCheckpoint) -> PostgresQuery {
        """
        UPDATE projection_checkpoints SET transaction_id = \(String(checkpoint.transactionID))::xid8,
            position = \(checkpoint.position), updated_at = now() WHERE name = \(name)
        """
    }

    static func readCheckpoint(_ name: String) -> PostgresQuery {
        "SELECT transaction_id::text, position FROM projection_checkpoints WHERE name = \(name)"
    }

    /// Every checkpoint with the readable events after it: count and age of the oldest.
    static let checkpointStatuses: PostgresQuery = """
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
