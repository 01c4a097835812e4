import OutboundHTTP

/// Turns an endpoint's host name into addresses, once per attempt: the dispatcher checks every
/// address against ``WebhookDestinationPolicy`` and connects only to those (never resolving again).
///
/// ``system`` asks the system resolver (`getaddrinfo`, through `OutboundHTTP.SystemResolver`) on
/// a thread of its own, so a slow DNS server never holds one of the cooperative pool's threads. Tests inject their own answers
/// (a name that changes its answer between two lookups, as DNS rebinding does).
public struct HostResolver: Sendable {
    private let resolve: @Sendable (String) async -> Result<[IPAddress], WebhookError>

    /// A resolver answering with `resolve`; an empty answer counts as `host_unresolved`.
    public init(_ resolve: @escaping @Sendable (String) async throws(WebhookError) -> [IPAddress]) {
        self.resolve = { host in
            do throws(WebhookError) {
                return .success(try await resolve(host))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The system resolver (`getaddrinfo`).
    public static let system = HostResolver { host throws(WebhookError) in try await systemAddresses(of: host) }

    /// Every address `host` resolves to (deduplicated, in resolver order); `host_unresolved` with
    /// the resolver's message when the name does not resolve.
    public func addresses(of host: String) async throws(WebhookError) -> [IPAddress] {
        let addresses = try await resolve(host).get()
        guard !addresses.isEmpty else { throw WebhookError(.hostUnresolved, "host \(host) resolved to no address") }
        return addresses
    }

    static func systemAddresses(of host: String) async throws(WebhookError) -> [IPAddress] {
        do {
            return try await SystemResolver.addresses(of: host)
        } catch {
            throw WebhookError(.hostUnresolved, error.message)
        }
    }
}
