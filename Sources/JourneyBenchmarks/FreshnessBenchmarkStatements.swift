import Postgres

/// The statements of `bench freshness` (``FreshnessBenchmark``) beyond its polls.
enum FreshnessBenchmarkStatements {
    /// One statement each (VACUUM runs outside a transaction): the tables the timed part writes,
    /// vacuumed and analyzed after the probe's burst so the run starts from a defined state.
    static let vacuumWrittenTables = [
        "VACUUM ANALYZE streams", "VACUUM ANALYZE events", "VACUUM ANALYZE process_journeys",
        "VACUUM ANALYZE projection_checkpoints", "VACUUM ANALYZE journey_state", "VACUUM ANALYZE journey_attempts",
        "VACUUM ANALYZE journey_daily", "VACUUM ANALYZE journey_daily_sdk_errors",
        "VACUUM ANALYZE journey_daily_time_to_result", "VACUUM ANALYZE journey_daily_result_bins",
    ]

    /// Checkpoints so far (timed and requested), autovacuum and autoanalyze runs so far over this
    /// database's tables, and WAL full-page images so far (counters read before and after the timed part).
    static let disturbances: PostgresQuery = """
        SELECT (SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)::bigint,
               (SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_user_tables)::bigint,
               (SELECT wal_fpi FROM pg_stat_wal)::bigint
        """

    /// Drops this backend's cached statistics snapshot, so the next read sees the counters now.
    static let clearStatsSnapshot: PostgresQuery = "SELECT pg_stat_clear_snapshot()"
}
