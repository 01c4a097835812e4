import CMicroHTTPD
import Synchronization

/// Cuts connections whose request head has not fully arrived in time, so a client that sends
/// one header line every few seconds cannot hold a connection (libmicrohttpd's own timeout only
/// counts idle time, which each line restarts).
///
/// A head is due `headTimeout` after the connection opens; on a kept-alive connection the next
/// head is due `keepAliveTimeout` after the previous response (nil: no deadline there). `sweep` shuts overdue sockets
/// down; libmicrohttpd then closes them on its own thread. Entries are removed when MHD reports
/// the connection closed, before it closes the socket, so a socket is never shut down after its
/// descriptor was reused.
final class RequestHeadDeadlines: Sendable {
    private struct Entry {
        let socket: Int32
        var deadline: ContinuousClock.Instant?
    }

    let headTimeout: Duration
    let keepAliveTimeout: Duration?
    private let entries = Mutex<[UInt: Entry]>([:])
    private let cutCount = Atomic<Int>(0)

    init(headTimeout: Duration, keepAliveTimeout: Duration?) {
        self.headTimeout = headTimeout
        self.keepAliveTimeout = keepAliveTimeout
    }

    /// Connections cut so far because their head was late.
    var cut: Int { cutCount.load(ordering: .sequentiallyConsistent) }

    /// A connection was accepted: its first head is due `headTimeout` from `now`.
    func opened(_ connection: OpaquePointer, now: ContinuousClock.Instant = .now) {
        let socket = htj_mhd_connection_fd(connection)
        guard socket >= 0 else { return }
        entries.withLock { $0[Self.key(connection)] = Entry(socket: socket, deadline: now + headTimeout) }
    }

    /// The head of a request arrived: no deadline while the request runs.
    func headReceived(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.deadline = nil }
    }

    /// A response went out: the next head on this connection is due `keepAliveTimeout` from `now`.
    func responded(_ connection: OpaquePointer, now: ContinuousClock.Instant = .now) {
        let deadline = keepAliveTimeout.map { now + $0 }
        entries.withLock { $0[Self.key(connection)]?.deadline = deadline }
    }

    /// MHD is closing the connection (its socket is still open).
    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every socket whose head is overdue at `now`; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (key, entry) in entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                // Counted before the client can see the close, so `cut` never lags behind it.
                cutCount.add(1, ordering: .sequentiallyConsistent)
                htj_shutdown_socket(entry.socket)
                entries[key]?.deadline = nil
                cut += 1
            }
            return cut
        }
    }

    /// How often `sweep` should run: a quarter of `headTimeout`, between 50 ms and 1 s.
    var sweepInterval: Duration {
        min(max(headTimeout / 4, .milliseconds(50)), .seconds(1))
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
