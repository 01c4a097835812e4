import Postgres

/// The wake-up side of the event store (``AppendNotifier``, ``LogFollower``): statements whose
/// commit nobody needs to wait for on disk.
extension EventStoreStatements {
    /// NOTIFY on `channel` without waiting for its commit record to reach disk: a notification
    /// draws a transaction id, so with `synchronous_commit` on it cost one WAL flush per wake-up.
    /// Listeners get it at commit either way, and a lost one only delays them to their poll.
    static func wakeUp(_ channel: String) -> PostgresQuery {
        "SELECT set_config('synchronous_commit', 'off', true), pg_notify(\(channel), '')"
    }

    /// For the rest of the batch transaction: commit without waiting for the WAL flush.
    static let asynchronousCommit = "SET LOCAL synchronous_commit = off"

    /// A stored follower batch's first round trip (one pipeline): BEGIN, the commit mode, and
    /// the checkpoint row created if missing and locked (the last statement's row; none when
    /// another follower holds it).
    static func openBatch(_ name: String, synchronousCommit: Bool) -> [PostgresQuery] {
        let mode: [PostgresQuery] = synchronousCommit ? [] : [PostgresQuery(unsafeSQL: asynchronousCommit)]
        return ["BEGIN"] + mode + [createCheckpoint(name), lockCheckpoint(name, skipLocked: true)]
    }

    /// A stored follower batch's last statements, after the handler's writes: the new checkpoint and COMMIT.
    static func closeBatch(_ name: String, _ checkpoint: GlobalCheckpoint) -> [PostgresQuery] {
        [storeCheckpoint(name, checkpoint), "COMMIT"]
    }

    static let commitBatch = "COMMIT"
    static let rollbackBatch = "ROLLBACK"
}
