#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as bytes (4 or 16), parsed strictly or as a URL host literal.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    package init(bytes: [UInt8]) {
        precondition(bytes.count == 4 || bytes.count == 16, "an IP address has 4 or 16 bytes")
        self.bytes = bytes
    }

    /// Parses dotted-quad IPv4 or RFC 4291 IPv6 text (brackets allowed); nil for anything else.
    public init?(_ text: String) {
        let text = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// The address a URL host denotes without a name lookup: what ``init(_:)`` reads plus the
    /// legacy IPv4 forms a resolver also accepts (`127.1`, `2130706433`, `0x7f.0.0.1`); nil for a name.
    public init?(hostLiteral host: String) {
        if let strict = IPAddress(host) {
            self = strict
            return
        }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let address = IPAddress(sockaddr: first.pointee.ai_addr) else { return nil }
        self = address
    }

    /// The address of a `sockaddr_in` or `sockaddr_in6`.
    package init?(sockaddr pointer: UnsafeMutablePointer<sockaddr>?) {
        guard let pointer else { return nil }
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            let address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self.init(bytes: withUnsafeBytes(of: address) { Array($0) })
        case AF_INET6:
            let address = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(bytes: withUnsafeBytes(of: address) { Array($0) })
        default:
            return nil
        }
    }

    /// The IPv4 address an IPv6 address carries (IPv4-mapped `::ffff:0:0/96`, IPv4-compatible
    /// `::/96` other than `::` and `::1`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`); nil otherwise.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let head = bytes.prefix(12)
        if head.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
            || head.elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        {
            return IPAddress(bytes: Array(bytes.suffix(4)))
        }
        if head.allSatisfy({ $0 == 0 }), bytes[12..<16].contains(where: { $0 != 0 }),
            !bytes[12..<15].allSatisfy({ $0 == 0 }) || bytes[15] > 1
        {
            return IPAddress(bytes: Array(bytes.suffix(4)))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return IPAddress(bytes: Array(bytes[2..<6]))
        }
        return nil
    }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = isIPv4 ? AF_INET : AF_INET6
        let text = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard text != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
