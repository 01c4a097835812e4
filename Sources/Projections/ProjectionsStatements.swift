import Foundation
import Postgres

/// Every statement over the journey read models (`journey_state`, `journey_attempts` and their
/// rebuild twins); values are binds, table names come from ``JourneyStateProjection/Tables``.
enum ProjectionsStatements {
    // MARK: - Applying events (JourneyStateProjection)

    /// The stored states of the journeys in `ids` (a JSON array of ids).
    static func states(ids: String, table: String) -> PostgresQuery {
        """
        SELECT journey_id, state::text FROM \(unsafeSQL: table)
        WHERE journey_id IN (SELECT json_array_elements_text(\(ids)::json))
        """
    }

    static func state(of journeyID: String, table: String) -> PostgresQuery {
        "SELECT state::text FROM \(unsafeSQL: table) WHERE journey_id = \(journeyID)"
    }

    /// Upserts `rows` (a JSON array of ``JourneyStateRow``) into the state table.
    static func upsertStates(_ rows: String, table: String) -> PostgresQuery {
        """
        INSERT INTO \(unsafeSQL: table)
        SELECT * FROM json_populate_recordset(NULL::\(unsafeSQL: table), \(rows)::json)
        ON CONFLICT (journey_id) DO UPDATE SET status = EXCLUDED.status, environment = EXCLUDED.environment,
            flow = EXCLUDED.flow, purpose = EXCLUDED.purpose, client_reference = EXCLUDED.client_reference,
            subject_reference = EXCLUDED.subject_reference, current_attempt = EXCLUDED.current_attempt,
            current_process_id = EXCLUDED.current_process_id, token_expires_at = EXCLUDED.token_expires_at,
            last_error_code = EXCLUDED.last_error_code, started_at = EXCLUDED.started_at,
            captured_at = EXCLUDED.captured_at, callback_at = EXCLUDED.callback_at, result_at = EXCLUDED.result_at,
            completed_at = EXCLUDED.completed_at, abandoned_at = EXCLUDED.abandoned_at, outcome = EXCLUDED.outcome,
            next_due_at = EXCLUDED.next_due_at, next_due_kind = EXCLUDED.next_due_kind, version = EXCLUDED.version,
            updated_position = EXCLUDED.updated_position, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at,
            next_due_attempt = EXCLUDED.next_due_attempt, tenant = EXCLUDED.tenant
        """
    }

    /// Upserts `rows` (a JSON array of ``JourneyAttemptRow``) into the attempts table.
    static func upsertAttempts(_ rows: String, table: String) -> PostgresQuery {
        """
        INSERT INTO \(unsafeSQL: table)
        SELECT * FROM json_populate_recordset(NULL::\(unsafeSQL: table), \(rows)::json)
        ON CONFLICT (journey_id, attempt) DO UPDATE SET process_id = EXCLUDED.process_id,
            requested_at = EXCLUDED.requested_at, created_at = EXCLUDED.created_at,
            token_expires_at = EXCLUDED.token_expires_at, capture_opened_at = EXCLUDED.capture_opened_at,
            callback_at = EXCLUDED.callback_at, result_fetched_at = EXCLUDED.result_fetched_at,
            outcome = EXCLUDED.outcome, error = EXCLUDED.error, token_issued_at = EXCLUDED.token_issued_at,
            callback_outcome = EXCLUDED.callback_outcome, sdk_error_code = EXCLUDED.sdk_error_code,
            closed_by_user_at = EXCLUDED.closed_by_user_at, session_timed_out_at = EXCLUDED.session_timed_out_at,
            link_issued_at = EXCLUDED.link_issued_at
        """
    }

    // MARK: - Rebuilding (ProjectionRebuilder)

    /// (Re)creates the rebuild tables empty, shaped like the live ones (raw SQL, one script).
    static func createRebuildTables(_ fresh: JourneyStateProjection.Tables, like live: JourneyStateProjection.Tables) -> String {
        """
        DROP TABLE IF EXISTS \(fresh.state), \(fresh.attempts);
        CREATE TABLE \(fresh.state) (LIKE \(live.state) INCLUDING ALL);
        CREATE TABLE \(fresh.attempts) (LIKE \(live.attempts) INCLUDING ALL);
        """
    }

    /// The rebuild tables' secondary indexes that are built after the `COPY` (a sorted build costs a
    /// fraction of one insert per row): name and definition of each index that is neither unique
    /// (the reloads' upserts need those) nor evaluates a JSON path per row (built at the end, that
    /// condition would detoast every state once more).
    static func deferredIndexes(_ fresh: JourneyStateProjection.Tables) -> PostgresQuery {
        """
        SELECT c.relname::text, pg_get_indexdef(x.indexrelid)
        FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
        WHERE x.indrelid IN (\(fresh.state)::regclass, \(fresh.attempts)::regclass)
          AND NOT x.indisunique AND pg_get_indexdef(x.indexrelid) NOT LIKE '%jsonb_path%'
        ORDER BY c.relname
        """
    }

    static func dropIndex(_ name: String) -> String {
        "DROP INDEX \(PostgresConnection.quoteIdentifier(name))"
    }

    /// Memory for the rebuild's index builds (one sort per index, in the caller's transaction).
    static let indexBuildMemory = "SET LOCAL maintenance_work_mem = '256MB'"

    /// A row when the server can compress TOAST with lz4.
    static let lz4Available: PostgresQuery = """
        SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
        """

    static func compressStateWithLZ4(_ table: String) -> String {
        "ALTER TABLE \(table) ALTER COLUMN state SET COMPRESSION lz4"
    }

    /// The columns of `table` in table order.
    static func columns(of table: String) -> PostgresQuery {
        """
        SELECT attname::text FROM pg_attribute
        WHERE attrelid = \(table)::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum
        """
    }

    /// `COPY` of rows in text format into `columns` of `table` (raw SQL, names quoted).
    static func copy(into table: String, columns: [String]) -> String {
        let list = columns.map(PostgresConnection.quoteIdentifier).joined(separator: ", ")
        return "COPY \(PostgresConnection.quoteIdentifier(table)) (\(list)) FROM STDIN"
    }

    /// For a rebuild batch: losing it in a crash only restarts the rebuild.
    static let asynchronousCommit = "SET LOCAL synchronous_commit = off"

    /// Each rebuilt index's name with the name of the live index of the same definition.
    static func indexPairs(live: JourneyStateProjection.Tables, fresh: JourneyStateProjection.Tables) -> PostgresQuery {
        """
        SELECT DISTINCT ON (f.indexname) o.indexname, f.indexname
        FROM pg_indexes o JOIN pg_indexes f
          ON f.schemaname = o.schemaname
         AND f.tablename = CASE o.tablename WHEN \(live.state) THEN \(fresh.state) ELSE \(fresh.attempts) END
         AND regexp_replace(f.indexdef, '^.* USING ', '') = regexp_replace(o.indexdef, '^.* USING ', '')
        WHERE o.schemaname = current_schema() AND o.tablename IN (\(live.state), \(live.attempts))
        ORDER BY f.indexname, o.indexname
        """
    }

    /// Renames the rebuilt tables over the live ones, drops the old ones (and the analyst views
    /// over them) and grants the roles their rights again, views included, with
    /// `grant_read_models()` of migration 0017 (raw SQL, one script, inside the caller's transaction).
    static func swap(_ fresh: JourneyStateProjection.Tables, into live: JourneyStateProjection.Tables) -> String {
        """
        LOCK TABLE \(live.state), \(live.attempts) IN ACCESS EXCLUSIVE MODE;
        DROP VIEW IF EXISTS analyst_journeys, analyst_attempts;
        ALTER TABLE \(live.state) RENAME TO \(live.state)_old;
        ALTER TABLE \(live.attempts) RENAME TO \(live.attempts)_old;
        ALTER TABLE \(fresh.state) RENAME TO \(live.state);
        ALTER TABLE \(fresh.attempts) RENAME TO \(live.attempts);
        DROP TABLE \(live.state)_old, \(live.attempts)_old;
        SELECT grant_read_models();
        """
    }

    static func renameIndex(_ name: String, to newName: String) -> String {
        "ALTER INDEX \(PostgresConnection.quoteIdentifier(name)) RENAME TO \(PostgresConnection.quoteIdentifier(newName))"
    }

    // MARK: - Reading (JourneyStateQueries)

    /// One keyset page of started journeys, newest first, optionally filtered; `limit` rows at most.
    /// The columns ``JourneyStateQueries/ListedJourney`` reads, by index.
    static func page(
        tenant: String, subject: String?, clientReference: String?, status: String?, environment: String?,
        createdFrom: Date?, createdTo: Date?, afterMicros: Int64?, afterID: String?, limit: Int
    ) -> PostgresQuery {
        """
        SELECT journey_id, status, current_attempt, environment, flow, purpose, client_reference,
               subject_reference, started_at, completed_at, abandoned_at, outcome, last_error_code,
               (extract(epoch FROM started_at) * 1000000)::bigint AS started_micros
        FROM journey_state
        WHERE started_at IS NOT NULL AND tenant = \(tenant)
          AND (\(nullable: subject)::text IS NULL OR subject_reference = \(nullable: subject))
          AND (\(nullable: clientReference)::text IS NULL OR client_reference = \(nullable: clientReference))
          AND (\(nullable: createdFrom)::timestamptz IS NULL OR started_at >= \(nullable: createdFrom))
          AND (\(nullable: createdTo)::timestamptz IS NULL OR started_at < \(nullable: createdTo))
          AND (\(nullable: status)::text IS NULL OR status = \(nullable: status))
          AND (\(nullable: environment)::text IS NULL OR environment = \(nullable: environment))
          AND (\(nullable: afterMicros)::bigint IS NULL
               OR (started_at, journey_id) < ('epoch'::timestamptz + \(nullable: afterMicros) * interval '1 microsecond',
                                              \(nullable: afterID)))
        ORDER BY started_at DESC, journey_id DESC
        LIMIT \(limit)
        """
    }

    /// Journeys per status, and how many of them await a result longer than `minutes` after a callback.
    static func statusCounts(resultOverdueAfterMinutes minutes: Int) -> PostgresQuery {
        """
        SELECT status, count(*),
               count(*) FILTER (WHERE status = 'awaitingResult' AND callback_at < now() - make_interval(mins => \(minutes)))
        FROM journey_state GROUP BY status
        """
    }

    /// Journeys whose next due work was due before `cutoff`.
    static func dueCount(before cutoff: Date) -> PostgresQuery {
        "SELECT count(*) FROM journey_state WHERE next_due_at < \(cutoff)"
    }
}
