import EventStore
import Foundation
import Postgres

/// The benchmarks' own SQL: their ceiling and baseline tables, and the synthetic rows they write
/// straight into a throwaway database (`journeys_bench`) as the schema owner; values are binds.
enum BenchmarkStatements {
    // MARK: - bench append (AppendBenchmark)

    /// The raw-INSERT ceilings: a bare copy of the event columns, and the same with the log's
    /// global-order columns and index.
    static let createCeilingTables = """
        DROP TABLE IF EXISTS bench_ceiling, bench_ceiling_ordered;
        CREATE TABLE bench_ceiling (
            stream_name text, stream_version bigint, event_id uuid, event_type text, data jsonb,
            correlation_id uuid, actor text, recorded_at timestamptz, previous_hash bytea, hash bytea);
        CREATE TABLE bench_ceiling_ordered (LIKE bench_ceiling,
            position bigint GENERATED ALWAYS AS IDENTITY,
            transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id());
        CREATE INDEX ON bench_ceiling_ordered (transaction_id, position);
        """

    /// `ids.count` rows of `stream` into a ceiling table (`bench_ceiling` or `bench_ceiling_ordered`).
    static func insertCeilingRows(table: String, stream: String, ids: [UUID], data: [JSONB]) -> PostgresQuery {
        """
        INSERT INTO \(unsafeSQL: table) (stream_name, stream_version, event_id, event_type, data,
            correlation_id, actor, recorded_at, previous_hash, hash)
        SELECT \(stream), v, id, 'BenchEvent', d, \(UUID.v7()), 'bench', clock_timestamp(),
               '\\x00'::bytea, sha256(d::text::bytea)
        FROM unnest(\(ids)::uuid[], \(data)::jsonb[]) WITH ORDINALITY AS x(id, d, v)
        """
    }

    // MARK: - bench claims (ClaimsBenchmark)

    /// Journeys that are not the benchmark's own.
    static let realJourneyCount: PostgresQuery = "SELECT count(*)::int FROM journey_state WHERE journey_id NOT LIKE 'bench-%'"

    static let deleteBenchJourneys = "DELETE FROM journey_state WHERE journey_id LIKE 'bench-%'"

    static let deleteBenchLeases = "DELETE FROM work_leases WHERE journey_id LIKE 'bench-%'"

    /// `total` journeys `bench-1`…, the first `due` due a second ago and the rest in a day; the
    /// shape of the projection's writes.
    static func insertBenchJourneys(total: Int, due: Int) -> PostgresQuery {
        """
        INSERT INTO journey_state (journey_id, status, current_attempt, next_due_at, next_due_kind, version,
                                   updated_position, state)
        SELECT 'bench-' || g, 'tokenIssued', 1,
               CASE WHEN g <= \(due) THEN now() - interval '1 second' ELSE now() + interval '1 day' END,
               'expireToken', 3, g, '{}'::jsonb
        FROM generate_series(1, \(total)) g
        """
    }

    /// The `SKIP LOCKED` DELETE baseline's queue table.
    static let createClaimsBaseline = """
        DROP TABLE IF EXISTS claims_baseline;
        CREATE TABLE claims_baseline (id bigint PRIMARY KEY, due_at timestamptz NOT NULL);
        CREATE INDEX claims_baseline_due ON claims_baseline (due_at);
        GRANT SELECT, UPDATE, DELETE ON claims_baseline TO journeys_app;
        """

    static func insertClaimsBaseline(total: Int, due: Int) -> PostgresQuery {
        """
        INSERT INTO claims_baseline (id, due_at)
        SELECT g, CASE WHEN g <= \(due) THEN now() - interval '1 second' ELSE now() + interval '1 day' END
        FROM generate_series(1, \(total)) g
        """
    }

    /// One statement each (VACUUM runs outside a transaction): the 1M-row insert would otherwise
    /// start an autovacuum of journey_state inside the timed part, on the same 2 cores.
    static let vacuumClaimTables = [
        "VACUUM ANALYZE journey_state", "VACUUM ANALYZE claims_baseline", "VACUUM ANALYZE work_leases",
    ]

    static let vacuumLeases = "VACUUM ANALYZE work_leases"

    static let cleanUpClaims = """
        DELETE FROM journey_state WHERE journey_id LIKE 'bench-%';
        DELETE FROM work_leases WHERE journey_id LIKE 'bench-%';
        DROP TABLE IF EXISTS claims_baseline;
        """

    /// Benchmark items claimed more than once.
    static let duplicateClaimCount: PostgresQuery =
        "SELECT count(*)::int FROM work_leases WHERE journey_id LIKE 'bench-%' AND tries > 1"

    static let doneClaimCount: PostgresQuery =
        "SELECT count(*)::int FROM work_leases WHERE journey_id LIKE 'bench-%' AND done_at IS NOT NULL"

    /// Claims (deletes) up to `limit` due baseline rows, `SKIP LOCKED`.
    static func claimBaseline(limit: Int) -> PostgresQuery {
        """
        DELETE FROM claims_baseline WHERE id IN (
            SELECT id FROM claims_baseline WHERE due_at <= now() ORDER BY due_at
            LIMIT \(limit) FOR UPDATE SKIP LOCKED)
        RETURNING id
        """
    }

    // MARK: - bench freshness (FreshnessBenchmark)

    /// Id and projected version of the journeys in `ids` that are projected.
    static func projectedVersions(ids: [String]) -> PostgresQuery {
        // `= ANY(array)`, not `IN (SELECT json_array_elements_text(…))`: the planner took that set
        // for 100 rows and, while journey_state held a few thousand wide rows, chose a sequential
        // scan for every poll (about 600 pages, once a millisecond), the benchmark's own load.
        "SELECT journey_id, version FROM journey_state WHERE journey_id = ANY(\(ids)::text[])"
    }

    // MARK: - bench rebuild (RebuildBenchmark)

    static let readModelRowCounts: PostgresQuery =
        "SELECT (SELECT count(*) FROM journey_state), (SELECT count(*) FROM journey_attempts)"

    /// Journeys `first...last` of run `run`, each a copy of template `g % templateCount` (events
    /// given as parallel arrays, `placeholder` replaced by the journey's id), hashed per event.
    static func insertHistory(
        first: Int, last: Int, run: String, placeholder: String, templateCount: Int,
        slots: [Int], sequences: [Int], types: [String], datas: [String]
    ) -> PostgresQuery {
        """
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data, correlation_id, actor,
                            recorded_at, previous_hash, hash)
        SELECT 'journey-' || j.id, t.seq, gen_random_uuid(), t.type, replace(t.data, \(placeholder), j.id)::jsonb,
               gen_random_uuid(), 'bench', now(), sha256(convert_to(j.id || (t.seq - 1), 'UTF8')),
               sha256(convert_to(j.id || t.seq, 'UTF8'))
        FROM (SELECT g, md5(\(run) || g)::uuid::text AS id, g % \(templateCount) AS slot
              FROM generate_series(\(first)::int, \(last)::int) g) j
        JOIN unnest(\(slots)::int[], \(sequences)::int[], \(types)::text[], \(datas)::text[]) AS t(slot, seq, type, data)
          ON t.slot = j.slot
        ORDER BY j.g, t.seq
        """
    }
}

extension BenchmarkStatements {
    /// `insertHistory` for journeys `first...last` but only their events numbered `sequence`: one
    /// call per number, in order, interleaves the journeys' events as concurrent traffic would.
    static func insertHistoryStep(
        first: Int, last: Int, sequence: Int, run: String, placeholder: String, templateCount: Int,
        slots: [Int], sequences: [Int], types: [String], datas: [String]
    ) -> PostgresQuery {
        """
        INSERT INTO events (stream_name, stream_version, event_id, event_type, data, correlation_id, actor,
                            recorded_at, previous_hash, hash)
        SELECT 'journey-' || j.id, t.seq, gen_random_uuid(), t.type, replace(t.data, \(placeholder), j.id)::jsonb,
               gen_random_uuid(), 'bench', now(), sha256(convert_to(j.id || (t.seq - 1), 'UTF8')),
               sha256(convert_to(j.id || t.seq, 'UTF8'))
        FROM (SELECT g, md5(\(run) || g)::uuid::text AS id, g % \(templateCount) AS slot
              FROM generate_series(\(first)::int, \(last)::int) g) j
        JOIN unnest(\(slots)::int[], \(sequences)::int[], \(types)::text[], \(datas)::text[]) AS t(slot, seq, type, data)
          ON t.slot = j.slot AND t.seq = \(sequence)
        ORDER BY j.g
        """
    }
}

extension BenchmarkStatements {
    // MARK: - bench client (ClientBenchmark)

    /// The bare INSERT's table (no index) and the point SELECT's table (`lookupRows` rows).
    static func createClientTables(lookupRows: Int) -> String {
        """
        DROP TABLE IF EXISTS bench_client_inserts, bench_client_lookup;
        CREATE TABLE bench_client_inserts (k bigint, v text);
        CREATE TABLE bench_client_lookup (k int PRIMARY KEY, v text);
        INSERT INTO bench_client_lookup SELECT g, 'value-' || g FROM generate_series(1, \(lookupRows)) g;
        ANALYZE bench_client_lookup;
        """
    }

    static func clientInsert(key: Int) -> PostgresQuery {
        "INSERT INTO bench_client_inserts (k, v) VALUES (\(key), \(clientPayload))"
    }

    static func clientSelect(key: Int) -> PostgresQuery {
        "SELECT v FROM bench_client_lookup WHERE k = \(key)"
    }

    static let clientPayload = "payload-0123456789"

    /// pgbench's script for the same INSERT.
    static let pgbenchInsertScript = """
        \\set k random(1, 1000000000)
        INSERT INTO bench_client_inserts (k, v) VALUES (:k, '\(clientPayload)');

        """

    /// pgbench's script for the same point SELECT over `lookupRows` keys.
    static func pgbenchSelectScript(lookupRows: Int) -> String {
        """
        \\set k random(1, \(lookupRows))
        SELECT v FROM bench_client_lookup WHERE k = :k;

        """
    }
}
