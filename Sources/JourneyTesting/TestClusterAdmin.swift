import EmbeddedPostgres
import Postgres
import Synchronization

/// One superuser pool per test cluster, kept for the process, that creates, copies and drops the
/// tests' databases. A pool per call cost two backend starts and two SCRAM proofs (~20 ms of CPU)
/// per test database; this one reconnects by itself after a test restarts its cluster.
enum TestClusterAdmin {
    private static let pools = Mutex<[String: PostgresClient]>([:])

    /// The pool of the cluster at `status` (two sessions: slot 0 serves several tests at once).
    static func pool(_ status: EmbeddedPostgres.Status) throws -> PostgresClient {
        try pools.withLock { pools in
            if let pool = pools[status.socketDirectory] { return pool }
            let pool = try PostgresClient(url: status.superuserURL, configuration: .init(maxConnections: 2))
            pools[status.socketDirectory] = pool
            return pool
        }
    }

    /// Runs one DDL statement (no transaction, as `CREATE`/`DROP DATABASE` require).
    static func execute(_ sql: String, status: EmbeddedPostgres.Status) async throws {
        try await pool(status).withConnection { try $0.execute(unsafeSQL: sql) }
    }
}
