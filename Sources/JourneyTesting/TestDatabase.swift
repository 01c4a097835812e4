import EmbeddedPostgres
import Foundation
import Migrations
import Postgres
import Synchronization

/// A fresh database per test (or suite) in one embedded cluster shared by the test process.
///
/// The cluster lives in `JOURNEYS_TEST_PG_DIR` (default `/tmp/journeys-test-pg`) and is
/// started with the same `EmbeddedPostgres` that `journeys db start` uses, without fsync.
/// Failing to start it fails the tests: database tests are never skipped.
public struct TestDatabase: Sendable {
    public let name: String
    public let cluster: EmbeddedPostgres
    public let status: EmbeddedPostgres.Status
    /// Connected as `journeys_app` (least privilege).
    public let app: PostgresClient
    /// Connected as `journeys_owner` (schema owner).
    public let owner: PostgresClient
    /// Connected as the `postgres` superuser, to this database.
    public let superuser: PostgresClient
    /// This database's place among those alive at once (``TestPermits``).
    let permit: TestPermit

    public var appURL: String { status.url(user: EmbeddedPostgres.appRole, database: name) }
    public var ownerURL: String { status.url(user: EmbeddedPostgres.ownerRole, database: name) }
    public var superuserURL: String { status.url(user: "postgres", database: name) }

    /// Creates a new database, migrated unless `migrated` is false. A migrated one is copied from
    /// the cluster's template of the current schema (``TestTemplate``), not migrated anew. Waits
    /// for a permit of ``TestPermits/shared`` first.
    public static func create(migrated: Bool = true, poolSize: Int = 8) async throws -> TestDatabase {
        let permit = await TestPermits.shared.acquire()
        let status = try TestCluster.status()
        let name = "t_\(getpid())_\(TestCluster.nextNumber())"
        if migrated {
            try await TestTemplate.copy(into: name, status: status)
        } else {
            try await TestCluster.cluster.createDatabase(name, status: status)
        }
        let database = TestDatabase(
            name: name, cluster: TestCluster.cluster, status: status,
            app: try PostgresClient(url: status.url(user: EmbeddedPostgres.appRole, database: name),
                                    configuration: .init(maxConnections: poolSize)),
            owner: try PostgresClient(url: status.url(user: EmbeddedPostgres.ownerRole, database: name),
                                      configuration: .init(maxConnections: 2)),
            superuser: try PostgresClient(url: status.url(user: "postgres", database: name),
                                          configuration: .init(maxConnections: 2)),
            permit: permit)
        return database
    }

    /// Closes the pools, drops the database and gives its permit back.
    public func drop() async {
        app.close()
        owner.close()
        superuser.close()
        try? await cluster.dropDatabase(name, status: status)
        permit.release()
    }
}

/// The embedded cluster shared by one test process.
public enum TestCluster {
    public static let cluster = EmbeddedPostgres(.init(
        directory: ProcessInfo.processInfo.environment["JOURNEYS_TEST_PG_DIR"] ?? "/tmp/journeys-test-pg",
        database: "journeys", durable: false))

    private static let started = Result { try cluster.start() }
    private static let counter = Atomic<Int>(0)

    /// Starts the cluster on first use; throws (failing the test) when it cannot.
    public static func status() throws -> EmbeddedPostgres.Status { try started.get() }

    static func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
