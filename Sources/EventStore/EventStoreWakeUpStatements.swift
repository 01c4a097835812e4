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
}
