import CMicroHTTPD
import Synchronization

/// Limits simultaneous connections per client: one IPv4 address, or one IPv6 /64 (the smallest
/// allocation a customer gets, so a client cannot multiply its share by using more addresses of
/// its own prefix, as counting per /128 would let it).
///
/// libmicrohttpd's accept policy refuses a connection whose client is at the limit before any of
/// it is read; `opened` and `closed` (MHD's connection notifications, which come in pairs) keep the
/// counts, and `opened` also cuts a connection that raced past the policy on another thread.
final class ConnectionsPerAddress: Sendable {
    /// An IPv4 address or an IPv6 /64 prefix.
    struct Key: Hashable, Sendable {
        let family: Int32
        let value: UInt64

        /// The key of a numeric IPv4 or IPv6 address; nil for anything else.
        init?(numeric text: String) {
            var value: UInt64 = 0
            let family = htj_numeric_address_key(text, &value)
            guard family != 0 else { return nil }
            self.init(family: family, value: value)
        }

        fileprivate init(family: Int32, value: UInt64) {
            self.family = family
            self.value = value
        }

        fileprivate init?(address: UnsafePointer<sockaddr>?) {
            var value: UInt64 = 0
            let family = htj_address_key(address, &value)
            guard family != 0 else { return nil }
            self.init(family: family, value: value)
        }

        fileprivate init?(connection: OpaquePointer) {
            var value: UInt64 = 0
            let family = htj_mhd_client_key(connection, &value)
            guard family != 0 else { return nil }
            self.init(family: family, value: value)
        }
    }

    private struct State {
        var counts: [Key: Int] = [:]
        var keys: [UInt: Key] = [:]
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a new connection from `address` is below the limit.
    func admits(_ address: UnsafePointer<sockaddr>?) -> Bool {
        guard let key = Key(address: address) else { return true }
        return state.withLock { ($0.counts[key] ?? 0) < limit }
    }

    /// Counts an accepted connection; shuts its socket down when its client is over the limit.
    func opened(_ connection: OpaquePointer) {
        guard let key = Key(connection: connection) else { return }
        let over = state.withLock { state in
            state.keys[Self.key(connection)] = key
            state.counts[key, default: 0] += 1
            return state.counts[key]! > limit
        }
        if over { htj_shutdown_socket(htj_mhd_connection_fd(connection)) }
    }

    /// MHD is closing the connection.
    func closed(_ connection: OpaquePointer) {
        state.withLock { state in
            guard let key = state.keys.removeValue(forKey: Self.key(connection)) else { return }
            let left = (state.counts[key] ?? 1) - 1
            state.counts[key] = left > 0 ? left : nil
        }
    }

    /// Connections counted for `key` now.
    func count(_ key: Key) -> Int {
        state.withLock { $0.counts[key] ?? 0 }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
