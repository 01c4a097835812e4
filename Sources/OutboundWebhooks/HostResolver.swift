import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns an endpoint's host name into addresses, once per attempt: the dispatcher checks every
/// address against ``WebhookDestinationPolicy`` and connects only to those (never resolving again).
///
/// ``system`` asks the system resolver (`getaddrinfo`) on a thread of its own, so a slow DNS
/// server never holds one of the cooperative pool's threads. Tests inject their own answers
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
        let result: Result<[IPAddress], WebhookError> = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: lookUp(host)) }
            thread.stackSize = 1 << 19
            thread.start()
        }
        return try result.get()
    }

    static func lookUp(_ host: String) -> Result<[IPAddress], WebhookError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let reason = String(cString: gai_strerror(status))
            return .failure(WebhookError(.hostUnresolved, "host \(host) did not resolve: \(reason)"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var cursor = list
        while let entry = cursor {
            if let address = IPAddress(sockaddr: entry.pointee.ai_addr), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(WebhookError(.hostUnresolved, "host \(host) resolved to no address"))
        }
        return .success(addresses)
    }
}
