import Dispatch
import Synchronization

/// A pool slot: a connection and the serial queue (thread) its blocking calls run on.
final class PooledConnection: Sendable {
    let queue = DispatchQueue(label: "postgres.connection")
    private let connection = Mutex<PostgresConnection?>(nil)

    /// Opens the connection; call on `queue`.
    /// With `detectProxy`, a connection through a proxy (PgBouncer) gets no statement cache.
    func open(_ configuration: PostgresConfiguration, statementCacheCapacity: Int, detectProxy: Bool) throws {
        let opened = try PostgresConnection.connect(configuration, statementCacheCapacity: 0)
        let proxied = try statementCacheCapacity > 0 && detectProxy && opened.isThroughProxy()
        if statementCacheCapacity > 0, !proxied {
            opened.statementCache = StatementCache(capacity: statementCacheCapacity)
        }
        connection.withLock { $0 = opened }
    }

    /// Lends the connection to `body` after noticing a server restart (and reconnecting);
    /// call on `queue`. `loop` stops watching the socket first; a socket it watched with nothing
    /// arriving since needs no `poll`.
    func use<T>(loop: PostgresEventLoop, _ body: (PostgresConnection) throws -> T) throws -> T {
        guard let current = connection.withLock({ $0 }) else {
            throw PostgresError(.connectionClosed, "the connection is closed")
        }
        let quiet = loop.unwatchQuiet(current) && current.isUsable
        if !quiet, !current.checkAlive() { try current.reset() }
        return try body(current)
    }

    /// The connection when it is open and no server restart is pending (no reconnect here);
    /// nil otherwise. Call only while holding the connection. A socket `loop` still watches
    /// had nothing arrive since its last statement, so it needs no `poll`.
    func connectionIfAlive(loop: PostgresEventLoop) -> PostgresConnection? {
        guard let current = connection.withLock({ $0 }) else { return nil }
        if loop.isQuiet(current) { return current.isUsable ? current : nil }
        return current.checkAlive() ? current : nil
    }

    /// Whether the pool may lend the connection again (``PostgresConnection/isReusable``).
    var isUsable: Bool { connection.withLock { $0?.isReusable ?? false } }

    func close() { connection.withLock { $0 = nil } }
}
