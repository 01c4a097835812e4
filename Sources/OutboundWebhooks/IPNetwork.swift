/// An address block in CIDR notation (`10.0.0.0/8`, `fc00::/7`); a bare address is a /32 or /128.
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// `address` with every bit past `prefixLength` cleared.
    public init(_ address: IPAddress, prefixLength: Int) {
        let bits = address.bytes.count * 8
        let length = min(max(prefixLength, 0), bits)
        var masked = address.bytes
        for index in masked.indices {
            let keep = min(max(length - index * 8, 0), 8)
            masked[index] &= keep == 0 ? 0 : UInt8(truncatingIfNeeded: 0xff << (8 - keep))
        }
        self.address = IPAddress(bytes: masked)
        self.prefixLength = length
    }

    /// Parses `ADDRESS` or `ADDRESS/LENGTH`; nil when either part is malformed or the length is too long.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let parsed = Int(parts[1]), (0...bits).contains(parsed), parts[1].allSatisfy(\.isNumber) else { return nil }
            length = parsed
        }
        self.init(address, prefixLength: length)
    }

    /// Whether `candidate` lies in this block (never across IPv4 and IPv6).
    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        return IPNetwork(candidate, prefixLength: prefixLength).address == address
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
