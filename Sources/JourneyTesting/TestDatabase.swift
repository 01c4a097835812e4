import EmbeddedPostgres
import EventStore
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
    /// Connected as `journeys_projector` (read models, checkpoints, outbox).
    public let projector: PostgresClient
    /// This database's place among those alive at once (``TestPermits``).
    let permit: TestPermit

    public var appURL: String { status.url(user: EmbeddedPostgres.appRole, database: name) }
    public var ownerURL: String { status.url(user: EmbeddedPostgres.ownerRole, database: name) }
    public var superuserURL: String { status.url(user: "postgres", database: name) }
    public var projectorURL: String { status.url(user: EmbeddedPostgres.projectorRole, database: name) }
    public var analystURL: String { status.url(user: EmbeddedPostgres.analystRole, database: name) }
    /// `DATABASE_URL`, `DATABASE_ADMIN_URL` and `DATABASE_PROJECTOR_URL` for a command run against this database.
    public var variables: [String: String] {
        ["DATABASE_URL": appURL, "DATABASE_ADMIN_URL": ownerURL, "DATABASE_PROJECTOR_URL": projectorURL]
    }

    /// Creates a new database, migrated unless `migrated` is false. A migrated one is copied from
    /// the cluster's template of the current schema (``TestTemplate``), not migrated anew. Waits
    /// for a permit of ``TestPermits/shared`` first; a `restartable` one lives alone on the cluster
    /// of ``TestPermits/restartableSlot``, which the test may stop and start without cutting off others.
    public static func create(migrated: Bool = true, poolSize: Int = 8, restartable: Bool = false) async throws -> TestDatabase {
        let permit = restartable ? await TestPermits.acquireRestartable() : await TestPermits.shared.acquire()
        let status = try await TestCluster.start(slot: permit.slot)
        let cluster = TestCluster.cluster(slot: permit.slot)
        let name = "t_\(getpid())_\(TestCluster.nextNumber())"
        if migrated {
            try await TestTemplate.copy(into: name, status: status)
        } else {
            try await TestClusterAdmin.execute(
                JourneyTestingStatements.createDatabase(name, owner: EmbeddedPostgres.ownerRole), status: status)
        }
        let database = TestDatabase(
            name: name, cluster: cluster, status: status,
            app: try PostgresClient(
                url: status.url(user: EmbeddedPostgres.appRole, database: name),
                configuration: .init(maxConnections: poolSize)),
            owner: try PostgresClient(
                url: status.url(user: EmbeddedPostgres.ownerRole, database: name),
                configuration: .init(maxConnections: 2)),
            superuser: try PostgresClient(
                url: status.url(user: "postgres", database: name),
                configuration: .init(maxConnections: 2)),
            projector: try PostgresClient(
                url: status.url(user: EmbeddedPostgres.projectorRole, database: name),
                configuration: .init(maxConnections: 2)),
            permit: permit)
        return database
    }

    /// Creates a database as ``create(migrated:poolSize:restartable:)`` does, runs `body` with it
    /// and drops it when `body` returns or throws (awaited: its permit is free before this returns).
    @discardableResult
    public static func with<T>(
        migrated: Bool = true, poolSize: Int = 8, restartable: Bool = false,
        isolation: isolated (any Actor)? = #isolation, _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        let database = try await create(migrated: migrated, poolSize: poolSize, restartable: restartable)
        do {
            let result = try await body(database)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }

    /// Waits until every committed event is readable in the global order and returns their
    /// number. The MVCC horizon is cluster-wide: another session's transaction (a concurrent
    /// `DROP DATABASE`, a test's open transaction) may hold the last events back for a moment.
    @discardableResult
    public func waitUntilReadable() async throws -> Int {
        let store = EventStore(client: owner)
        return try await waitFor("every committed event is readable") {
            let all = try await store.eventCount()
            return try await store.readableEventCount() == all ? all : nil
        }
    }

    /// This database with its application and owner pools (and optionally its projector pool)
    /// replaced (e.g. URLs through PgBouncer); drop the original (it closes the original pools).
    public func replacing(app: PostgresClient, owner: PostgresClient, projector: PostgresClient? = nil) -> TestDatabase {
        TestDatabase(
            name: name, cluster: cluster, status: status, app: app, owner: owner, superuser: superuser,
            projector: projector ?? self.projector, permit: permit)
    }

    /// Closes the pools, drops the database and gives its permit back.
    public func drop() async {
        app.close()
        owner.close()
        superuser.close()
        projector.close()
        try? await TestClusterAdmin.execute(JourneyTestingStatements.dropDatabase(name), status: status)
        permit.release()
    }
}

/// The embedded clusters of one test process: slot 0 in `JOURNEYS_TEST_PG_DIR` (default
/// `/tmp/journeys-test-pg`), slot n in its `slot-n` folder, one per ``TestPermits`` permit.
public enum TestCluster {
    /// The folder of slot 0.
    public static let directory = ProcessInfo.processInfo.environment["JOURNEYS_TEST_PG_DIR"] ?? "/tmp/journeys-test-pg"
    /// Slot 0's cluster.
    public static let cluster = cluster(slot: 0)

    private static let started = Mutex<[Int: Result<EmbeddedPostgres.Status, any Error>]>([:])
    private static let counter = Atomic<Int>(0)

    /// The cluster of `slot`: not durable, and its passwords' verifiers of one SCRAM round (a
    /// client's proof at each connection cost ~4 ms of CPU at PostgreSQL's 4096, ~6% of a run's).
    public static func cluster(slot: Int) -> EmbeddedPostgres {
        var configuration = EmbeddedPostgres.Configuration(
            directory: slot == 0 ? directory : directory + "/slot-\(slot)", database: "journeys", durable: false)
        configuration.scramIterations = 1
        return EmbeddedPostgres(configuration)
    }

    /// Starts slot 0's cluster on first use; throws (failing the test) when it cannot.
    public static func status() throws -> EmbeddedPostgres.Status { try status(slot: 0) }

    /// Starts `slot`'s cluster on first use, one at a time (a new cluster picks a free port);
    /// throws (failing the test) when it cannot. Blocks the caller while a cluster starts.
    public static func status(slot: Int) throws -> EmbeddedPostgres.Status {
        try starting.sync { try startOnce(slot) }
    }

    /// ``status(slot:)`` without blocking a thread of the cooperative pool: `initdb` and `pg_ctl`
    /// run on a queue of their own while the test's task waits.
    public static func start(slot: Int) async throws -> EmbeddedPostgres.Status {
        if let known = started.withLock({ $0[slot] }) { return try known.get() }
        return try await withCheckedThrowingContinuation { continuation in
            starting.async { continuation.resume(with: Result { try startOnce(slot) }) }
        }
    }

    /// Starts clusters one at a time, off the cooperative pool.
    private static let starting = DispatchQueue(label: "journeys.test-cluster.start")

    private static func startOnce(_ slot: Int) throws -> EmbeddedPostgres.Status {
        if let known = started.withLock({ $0[slot] }) { return try known.get() }
        let result = Result { try cluster(slot: slot).start() }
        started.withLock { $0[slot] = result }
        return try result.get()
    }

    static func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
