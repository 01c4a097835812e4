import Foundation
import Postgres

/// Named checkpoints of the log's followers, one row each in `projection_checkpoints`.
///
/// A checkpointed batch locks its row, reads after it and stores the new checkpoint in one
/// transaction with whatever it wrote, so its effect happens exactly once; a second follower
/// of the same name finds the row locked and skips (`SKIP LOCKED`), and a follower that dies
/// frees the row with its connection. Writing needs the schema owner; reading does not.
public struct CheckpointStore: Sendable {
    public let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// `name`'s stored checkpoint; `.start` when it has none.
    public func checkpoint(_ name: String) async throws -> GlobalCheckpoint {
        guard let row = try await client.query(EventStoreStatements.readCheckpoint(name)).first else { return .start }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }

    /// Every checkpoint and how far behind the readable log it is, by name.
    public func statuses() async throws -> [CheckpointStatus] {
        try await client.query(EventStoreStatements.checkpointStatuses).map { row in
            CheckpointStatus(
                name: try row.decode(0),
                checkpoint: GlobalCheckpoint(transactionID: try row.decode(1), position: try row.decode(2)),
                updatedAt: try row.decode(3), lagEvents: try row.decode(4), lagSeconds: max(0, try row.decode(5)))
        }
    }

    /// Row-locks `name`'s checkpoint for the caller's transaction, creating it at the start of the
    /// log if missing. Returns nil while another transaction holds it, or with `wait` waits for it.
    public static func lock(_ name: String, wait: Bool = false, on connection: PostgresConnection) throws -> GlobalCheckpoint? {
        try connection.query(EventStoreStatements.createCheckpoint(name))
        guard let row = try connection.query(EventStoreStatements.lockCheckpoint(name, skipLocked: !wait)).first else {
            return nil
        }
        return GlobalCheckpoint(transactionID: try row.decode(0), position: try row.decode(1))
    }

    /// Stores `name`'s checkpoint in the caller's transaction (after `lock`).
    public static func store(_ name: String, _ checkpoint: GlobalCheckpoint, on connection: PostgresConnection) throws {
        try connection.query(EventStoreStatements.storeCheckpoint(name, checkpoint))
    }
}
