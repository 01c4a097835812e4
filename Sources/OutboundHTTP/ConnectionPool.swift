import Synchronization

/// A client's idle HTTP/1.1 connections kept open for later requests (keep-alive), per
/// destination, bounded in number and in idle time (``OutboundHTTPClient/Configuration``).
///
/// A connection is put back only after an answer that leaves it reusable (read whole by its own
/// framing, no `Connection: close`); it is taken only for the same scheme, host name (the TLS
/// name checked) and port, and only when its peer is one of the addresses the caller passed, so
/// a connection opened to an address checked earlier never carries a request to a name that now
/// resolves elsewhere. Expired connections are closed when the pool is next used.
final class ConnectionPool: Sendable {
    /// Where a connection goes: scheme, host name (TLS SNI and certificate name) and port. One
    /// client has one TLS context, so these fix the TLS identity too.
    struct Destination: Hashable, Sendable {
        var secure: Bool
        var host: String
        var port: UInt16

        init(_ target: OutboundHTTPRequest.Target) {
            secure = target.secure
            host = target.host.lowercased()
            port = target.port
        }
    }

    private let state: Mutex<IdleConnections<PooledConnection>>
    private let now: @Sendable () -> ContinuousClock.Instant

    init(configuration: OutboundHTTPClient.Configuration, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        state = Mutex(
            IdleConnections(
                maxPerDestination: configuration.maxIdleConnectionsPerHost, maxTotal: configuration.maxIdleConnections,
                idleTimeout: .seconds(configuration.idleTimeout)))
        self.now = now
    }

    /// Idle connections now.
    var count: Int { state.withLock { $0.count } }

    /// An idle connection to `destination` at one of `addresses` whose server has not closed it,
    /// or nil; those found closed are closed here.
    func take(_ destination: Destination, at addresses: [IPAddress]) -> PooledConnection? {
        while true {
            let instant = now()
            let (taken, close) = state.withLock { $0.take(destination, at: addresses, now: instant) }
            _ = close  // released here, outside the lock: closes them
            guard let taken else { return nil }
            if taken.socket.isQuiet { return taken }
        }
    }

    /// Keeps `connection` for a later request to `destination` (or closes it: over a cap).
    func put(_ connection: PooledConnection, _ destination: Destination) {
        connection.suspend()
        let instant = now()
        let close = state.withLock { $0.put(connection, destination, address: connection.socket.address, now: instant) }
        _ = close
    }
}
