import CMicroHTTPD
import Synchronization

/// Cuts connections whose request has not fully arrived in time, so a client that sends one header
/// line, or one body byte, every few seconds cannot hold a connection (libmicrohttpd's own timeout
/// only counts idle time, which each byte restarts).
///
/// A head is due `headTimeout` after the connection opens; on a kept-alive connection the next
/// head is due `keepAliveTimeout` after the previous response (nil: no deadline there). Once the
/// head is in, the whole body is due `bodyTimeout` after it (nil: no deadline). While the handler
/// runs and its response goes out there is none. `sweep` shuts overdue sockets down;
/// libmicrohttpd then closes them on its own thread. Entries are removed when MHD reports the
/// connection closed, before it closes the socket, so a socket is never shut down after its
/// descriptor was reused.
final class RequestDeadlines: Sendable {
    private enum Awaiting {
        case head
        case body
    }

    private struct Entry {
        let socket: Int32
        var deadline: ContinuousClock.Instant?
        var awaiting: Awaiting
    }

    let headTimeout: Duration?
    let keepAliveTimeout: Duration?
    let bodyTimeout: Duration?
    private let entries = Mutex<[UInt: Entry]>([:])
    private let headsCutCount = Atomic<Int>(0)
    private let bodiesCutCount = Atomic<Int>(0)

    init(headTimeout: Duration?, keepAliveTimeout: Duration?, bodyTimeout: Duration?) {
        self.headTimeout = headTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.bodyTimeout = bodyTimeout
    }

    /// Connections cut so far because their head was late.
    var headsCut: Int { headsCutCount.load(ordering: .sequentiallyConsistent) }

    /// Connections cut so far because their body was late.
    var bodiesCut: Int { bodiesCutCount.load(ordering: .sequentiallyConsistent) }

    /// A connection was accepted: its first head is due `headTimeout` from `now`.
    func opened(_ connection: OpaquePointer, now: ContinuousClock.Instant = .now) {
        let socket = htj_mhd_connection_fd(connection)
        guard socket >= 0 else { return }
        let entry = Entry(socket: socket, deadline: headTimeout.map { now + $0 }, awaiting: .head)
        entries.withLock { $0[Self.key(connection)] = entry }
    }

    /// The head of a request arrived: its body is due `bodyTimeout` from `now`.
    func headReceived(_ connection: OpaquePointer, now: ContinuousClock.Instant = .now) {
        let deadline = bodyTimeout.map { now + $0 }
        entries.withLock { entries in
            entries[Self.key(connection)]?.deadline = deadline
            entries[Self.key(connection)]?.awaiting = .body
        }
    }

    /// The whole body arrived: no deadline while the request runs.
    func bodyReceived(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.deadline = nil }
    }

    /// A response went out: the next head on this connection is due `keepAliveTimeout` from `now`.
    func responded(_ connection: OpaquePointer, now: ContinuousClock.Instant = .now) {
        let deadline = headTimeout == nil ? nil : keepAliveTimeout.map { now + $0 }
        entries.withLock { entries in
            entries[Self.key(connection)]?.deadline = deadline
            entries[Self.key(connection)]?.awaiting = .head
        }
    }

    /// MHD is closing the connection (its socket is still open).
    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Shuts down every socket whose head or body is overdue at `now`; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        entries.withLock { entries in
            var cut = 0
            for (key, entry) in entries {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                // Counted before the client can see the close, so the counts never lag behind it.
                switch entry.awaiting {
                case .head: headsCutCount.add(1, ordering: .sequentiallyConsistent)
                case .body: bodiesCutCount.add(1, ordering: .sequentiallyConsistent)
                }
                htj_shutdown_socket(entry.socket)
                entries[key]?.deadline = nil
                cut += 1
            }
            return cut
        }
    }

    /// How often `sweep` should run: a quarter of the shorter timeout, between 50 ms and 1 s.
    var sweepInterval: Duration {
        let shortest = [headTimeout, bodyTimeout].compactMap { $0 }.min() ?? .seconds(4)
        return min(max(shortest / 4, .milliseconds(50)), .seconds(1))
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
