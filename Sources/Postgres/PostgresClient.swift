import Dispatch
import Foundation
import Synchronization

/// A bounded pool of connections. Each connection lives on its own serial dispatch queue, so
/// blocking libpq calls never run on Swift's cooperative thread pool; a single prepared statement
/// (``query(_:)``) is only sent from the caller's thread (libpq's socket never blocks on a small
/// send) and its result read by the pool's event loop.
public final class PostgresClient: Sendable {
    public struct Configuration: Sendable {
        /// Most connections open at once. Default 8.
        public var maxConnections: Int = 8
        /// How long a caller waits for a free connection before `pool_timeout`. Default 30 s.
        public var acquireTimeout: Double = 30
        /// Where LISTEN connections go (`DATABASE_LISTEN_URL`): a direct server connection when
        /// the pool goes through PgBouncer in transaction mode, which cannot hold a LISTEN.
        /// Default nil: the pool's own database.
        public var listenDatabase: PostgresConfiguration?
        /// Named prepared statements kept per connection (each SQL text parsed once per
        /// connection); 0 turns the cache off. Default 256.
        public var statementCacheCapacity: Int = PostgresConnection.defaultStatementCacheCapacity
        /// Whether connections use the statement cache (`DATABASE_PREPARED_STATEMENTS`). Default `.auto`.
        public var preparedStatements: PreparedStatements = .auto
        public init(
            maxConnections: Int = 8, acquireTimeout: Double = 30, listenDatabase: PostgresConfiguration? = nil,
            statementCacheCapacity: Int = PostgresConnection.defaultStatementCacheCapacity,
            preparedStatements: PreparedStatements = .auto
        ) {
            self.maxConnections = maxConnections
            self.acquireTimeout = acquireTimeout
            self.listenDatabase = listenDatabase
            self.statementCacheCapacity = statementCacheCapacity
            self.preparedStatements = preparedStatements
        }
    }

    /// When pooled connections keep named prepared statements.
    public enum PreparedStatements: String, Sendable, CaseIterable {
        /// On, except on a connection that goes through a pooler such as PgBouncer (the server
        /// process serving it is not the one libpq was told of at login, or the server's port
        /// differs from the one connected to): PgBouncer 1.18 in transaction mode does not carry
        /// prepared statements from one transaction to the next. Names are digests of the SQL
        /// text, so a pooler that goes unnoticed costs errors, never a wrong statement.
        case auto
        /// On for every connection (a direct server, or a pooler that tracks prepared statements).
        case on
        /// Off: every statement unnamed, parsed on each call.
        case off
    }

    typealias Waiter = CheckedContinuation<PooledConnection, any Error>

    public let database: PostgresConfiguration
    public let configuration: Configuration
    /// Where this pool's LISTEN connections go: ``Configuration/listenDatabase`` or ``database``.
    public var listenDatabase: PostgresConfiguration { configuration.listenDatabase ?? database }
    private let state: Mutex<(machine: PoolStateMachine<PooledConnection, Waiter>, nextID: Int)>
    /// Waits for single statements' results (see ``query(_:)``); also ``loopExecutor``.
    let loop = PostgresEventLoop()

    public init(_ database: PostgresConfiguration, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
        self.state = Mutex((PoolStateMachine(maxConnections: configuration.maxConnections), 0))
    }

    deinit { loop.stop() }

    /// Convenience: validates `url` and builds a client.
    public convenience init(url: String, configuration: Configuration = Configuration()) throws {
        self.init(try PostgresConfiguration(url), configuration: configuration)
    }

    /// Lends a connection to `body`, which runs on that connection's own thread.
    ///
    /// The connection goes back to the pool on that thread as soon as `body` returns, so a
    /// waiting caller gets it without waiting for this one's task to be scheduled again.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await run(on: try await acquire(), body)
    }

    /// Runs `body` on `pooled`'s queue, then returns the connection to the pool.
    private func run<T: Sendable>(on pooled: PooledConnection, _ body: @escaping @Sendable (PostgresConnection) throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            pooled.queue.async { [self] in
                let result = Result {
                    try pooled.use(loop: loop) { connection in
                        defer { connection.rollbackIfOpen() }
                        return try body(connection)
                    }
                }
                release(pooled)
                continuation.resume(with: result)
            }
        }
    }

    /// Runs one statement.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRows {
        let pooled = try await acquire()
        guard let connection = pooled.connectionIfAlive(loop: loop), try sendOrRelease(query, on: connection, pooled) else {
            // Not prepared yet, or a restart to notice: the queue path prepares and reconnects.
            return try await run(on: pooled) { try $0.query(query) }
        }
        let (outcome, isStale) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Result<PostgresRows, any Error>, isStale: Bool), Never>) in
            let finish: @Sendable (OpaquePointer?) -> Void = { [self] result in
                let finished = connection.finishSent(result, statement: query)
                // A sent BEGIN must not leave its transaction open on a pooled connection.
                connection.rollbackIfOpen()
                release(pooled)
                continuation.resume(returning: finished)
            }
            if !loop.await(connection, completion: finish) {
                pooled.queue.async { finish(connection.receiveBlocking()) }
            }
        }
        if isStale { return try await withConnection { try $0.query(query) } }
        return try outcome.get()
    }

    /// Sends `query` on the caller's thread; on a send error the connection goes back and the error is thrown.
    private func sendOrRelease(_ query: PostgresQuery, on connection: PostgresConnection, _ pooled: PooledConnection) throws
        -> Bool
    {
        do {
            return try connection.send(query)
        } catch {
            release(pooled)
            throw error
        }
    }

    /// Runs `body` in a transaction on one connection; rolls back when it throws.
    public func transaction<T: Sendable>(isolation: String? = nil, _ body: @escaping @Sendable (PostgresConnection) throws -> T)
        async throws -> T
    {
        try await withConnection { try $0.transaction(isolation: isolation, body) }
    }

    /// Closes idle connections and fails waiters; connections in use close when returned.
    public func close() {
        loop.stop()
        let (idle, waiters) = state.withLock { $0.machine.close() }
        idle.forEach { $0.close() }
        waiters.forEach { $0.resume(throwing: PostgresError(.poolClosed, "the connection pool is closed")) }
    }

    /// Connections currently open (idle or lent), for metrics and tests.
    public var openConnections: Int { state.withLock { $0.machine.open } }

    /// Callers waiting for a free connection now, for metrics and tests.
    public var waitingCallers: Int { state.withLock { $0.machine.waiters.count } }

    // MARK: - Acquire and release

    private func acquire() async throws -> PooledConnection {
        // An idle connection needs no continuation and no cancellation handler.
        if let pooled = state.withLock({ $0.machine.takeIdle() }) { return pooled }
        let id = state.withLock { state -> Int in
            state.nextID += 1; return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let action = state.withLock { $0.machine.acquire(waiterID: id, waiter: continuation) }
                switch action {
                case .use(let pooled): continuation.resume(returning: pooled)
                case .fail(let error): continuation.resume(throwing: error)
                case .create: open(for: continuation)
                case .wait:
                    // Cancelled before the waiter was registered: the handler found nothing to cancel.
                    if Task.isCancelled, let waiter = state.withLock({ $0.machine.cancelWaiter(id: id) }) {
                        waiter.resume(throwing: CancellationError())
                    } else {
                        scheduleTimeout(waiterID: id)
                    }
                }
            }
        } onCancel: {
            if let waiter = state.withLock({ $0.machine.cancelWaiter(id: id) }) {
                waiter.resume(throwing: CancellationError())
            }
        }
    }

    private func scheduleTimeout(waiterID id: Int) {
        let timeout = configuration.acquireTimeout
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            guard let self, let waiter = self.state.withLock({ $0.machine.cancelWaiter(id: id) }) else { return }
            waiter.resume(throwing: PostgresError(.poolTimeout, "no database connection free after \(timeout) s"))
        }
    }

    private func open(for waiter: Waiter) {
        let pooled = PooledConnection()
        pooled.queue.async { [self] in
            do {
                try pooled.open(
                    database,
                    statementCacheCapacity: configuration.preparedStatements == .off ? 0 : configuration.statementCacheCapacity,
                    detectProxy: configuration.preparedStatements == .auto)
                waiter.resume(returning: pooled)
            } catch {
                waiter.resume(throwing: error)
                apply(state.withLock { $0.machine.creationFailed() })
            }
        }
    }

    private func release(_ pooled: PooledConnection) {
        let broken = !pooled.isUsable
        if broken { pooled.close() }
        apply(state.withLock { $0.machine.release(pooled, broken: broken) })
    }

    private func apply(_ action: PoolStateMachine<PooledConnection, Waiter>.ReleaseAction) {
        switch action {
        case .none: break
        case .handOver(let pooled, let waiter): waiter.resume(returning: pooled)
        case .createFor(let waiter): open(for: waiter)
        }
    }
}
