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
        try await CheckpointStore(client: client).statuses().map { status in
            ProjectionStatus(
                name: status.name, checkpoint: status.checkpoint, updatedAt: status.updatedAt,
                lagEvents: status.lagEvents, lagSeconds: status.lagSeconds)
        }
    }

    /// The status of one projection, nil when unknown.
    public static func read(name: String, client: PostgresClient) async throws -> ProjectionStatus? {
        try await read(client: client).first { $0.name == name }
    }
}
