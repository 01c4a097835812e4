import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves a host name with the system resolver (`getaddrinfo`), on a thread of its own so a
/// slow DNS server never holds one of the cooperative pool's threads.
public enum SystemResolver {
    /// Every address `host` resolves to (deduplicated, in resolver order); `host_unresolved`
    /// with the resolver's message when the name does not resolve.
    public static func addresses(of host: String) async throws(OutboundHTTPError) -> [IPAddress] {
        let result: Result<[IPAddress], OutboundHTTPError> = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: lookUp(host)) }
            thread.stackSize = 1 << 19
            thread.start()
        }
        return try result.get()
    }

    static func lookUp(_ host: String) -> Result<[IPAddress], OutboundHTTPError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let reason = String(cString: gai_strerror(status))
            return .failure(OutboundHTTPError(.hostUnresolved, "host \(host) did not resolve: \(reason)"))
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
            return .failure(OutboundHTTPError(.hostUnresolved, "host \(host) resolved to no address"))
        }
        return .success(addresses)
    }
}
