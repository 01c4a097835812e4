import EventStore
import Foundation
import Postgres

/// Where each projection stands (`journeys projections status`).
public struct ProjectionStatus: Sendable, Equatable {
    public let name: String
    public let checkpoint: GlobalCheckpoint
    public let updatedAt: Date
    /// Readable events after the checkpoint (below the MVCC horizon).
    public let lagEvents: Int
    /// Age in seconds of the oldest unapplied readable event; 0 when caught up.
    public let lagSeconds: Double

    /// Every projection's status, by name. Works with the application role (SELECT only).
    public static func read(client: PostgresClient) async throws -> [ProjectionStatus] {
        try await client.query("""
            SELECT c.name, c.transaction_id::text, c.position, c.updated_at, lag.events,
                   COALESCE(EXTRACT(EPOCH FROM (clock_timestamp() - lag.oldest)), 0)::float8
            FROM projection_checkpoints c
            CROSS JOIN LATERAL (
                SELECT count(*) AS events, min(e.recorded_at) AS oldest FROM events e
                WHERE (e.transaction_id, e.position) > (c.transaction_id, c.position)
                  AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
            ) lag
            ORDER BY c.name
            """).map { row in
            ProjectionStatus(
                name: try row.decode(0),
                checkpoint: GlobalCheckpoint(transactionID: try row.decode(1), position: try row.decode(2)),
                updatedAt: try row.decode(3), lagEvents: try row.decode(4), lagSeconds: max(0, try row.decode(5)))
        }
    }

    /// The status of one projection, nil when unknown.
    public static func read(name: String, client: PostgresClient) async throws -> ProjectionStatus? {
        try await read(client: client).first { $0.name == name }
    }
}
