import Foundation

/// Where a named checkpoint stands against the readable log.
public struct CheckpointStatus: Sendable, Equatable {
    public let name: String
    public let checkpoint: GlobalCheckpoint
    public let updatedAt: Date
    /// Readable events after the checkpoint (below the MVCC horizon).
    public let lagEvents: Int
    /// Age in seconds of the oldest unapplied readable event; 0 when caught up.
    public let lagSeconds: Double
}
