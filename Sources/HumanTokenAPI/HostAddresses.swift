import OutboundHTTP
import Synchronization

/// The addresses of Unico's hosts, resolved with the system resolver and kept ``lifetime`` (as
/// libcurl's DNS cache kept them for 60 s under URLSession), so a call does not wait for a DNS
/// answer each time. An IP literal is used as is. A host whose addresses failed (no connection,
/// no answer) is forgotten: the next call resolves it again.
final class HostAddresses: Sendable {
    /// How long a host's addresses are reused: 60 s.
    static let lifetime = Duration.seconds(60)

    typealias Resolve = @Sendable (String) async throws(OutboundHTTPError) -> [IPAddress]

    private struct Entry {
        var addresses: [IPAddress]
        var until: ContinuousClock.Instant
    }

    private let resolve: Resolve
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: Entry]>([:])

    /// Resolves with `resolve` (default: ``OutboundHTTP/SystemResolver``); `now` dates the entries.
    init(
        resolve: @escaping Resolve = { host throws(OutboundHTTPError) in try await SystemResolver.addresses(of: host) },
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.resolve = resolve
        self.now = now
    }

    /// The addresses of `host` (a name, or an IP literal without brackets); `host_unresolved` when
    /// it does not resolve.
    func addresses(of host: String) async throws(OutboundHTTPError) -> [IPAddress] {
        if let literal = IPAddress(hostLiteral: host) { return [literal] }
        let time = now()
        if let entry = entries.withLock({ $0[host] }), entry.until > time { return entry.addresses }
        let addresses = try await resolve(host)
        entries.withLock { $0[host] = Entry(addresses: addresses, until: time + Self.lifetime) }
        return addresses
    }

    /// Drops `host`'s addresses after a call to them failed.
    func forget(_ host: String) {
        _ = entries.withLock { $0.removeValue(forKey: host) }
    }
}
