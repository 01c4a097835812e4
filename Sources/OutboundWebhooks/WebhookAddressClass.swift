/// The kinds of address outbound webhooks refuse unless allow-listed (SSRF): the service's own
/// host, internal networks and cloud metadata services.
public enum WebhookAddressClass: String, Sendable, Hashable, CaseIterable {
    /// `0.0.0.0/8`, `::`.
    case unspecified
    /// `127.0.0.0/8`, `::1`.
    case loopback
    /// RFC 1918 (`10/8`, `172.16/12`, `192.168/16`), shared `100.64/10`, unique local `fc00::/7`.
    case `private`
    /// `169.254/16`, `fe80::/10`.
    case linkLocal = "link-local"
    /// `169.254.169.254`, `fd00:ec2::254`: cloud instance metadata.
    case metadata
    /// Multicast and reserved: `224/4`, `240/4` (with broadcast), `ff00::/8`.
    case reserved
    /// Special-purpose blocks that are no destination on the Internet (RFC 6890): IETF protocol
    /// assignments `192.0.0.0/24`, `2001::/23`; documentation `192.0.2.0/24`, `198.51.100.0/24`,
    /// `203.0.113.0/24`, `2001:db8::/32`, `3fff::/20`; benchmarking `198.18.0.0/15`; the 6to4
    /// relay `192.88.99.0/24`; discard-only `100::/64`; local-use NAT64 `64:ff9b:1::/48`.
    case special = "special-purpose"

    /// What an operator reads in a refusal.
    public var phrase: String {
        switch self {
        case .unspecified: "an unspecified address"
        case .loopback: "a loopback address"
        case .private: "a private address"
        case .linkLocal: "a link-local address"
        case .metadata: "a cloud metadata address"
        case .reserved: "a multicast or reserved address"
        case .special: "a special-purpose address (protocol, documentation or benchmarking)"
        }
    }

    /// The class of `address`, nil for a public one. An IPv6 address that carries an IPv4
    /// address (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address.
    public static func of(_ address: IPAddress) -> WebhookAddressClass? {
        if let embedded = address.embeddedIPv4 { return of(embedded) }
        for (network, kind) in table where network.contains(address) { return kind }
        return nil
    }

    /// Most specific first: metadata lies inside link-local and unique-local blocks.
    static let table: [(IPNetwork, WebhookAddressClass)] =
        ([
            ("169.254.169.254/32", .metadata), ("fd00:ec2::254/128", .metadata),
            ("0.0.0.0/8", .unspecified), ("::/128", .unspecified),
            ("127.0.0.0/8", .loopback), ("::1/128", .loopback),
            ("10.0.0.0/8", .private), ("172.16.0.0/12", .private), ("192.168.0.0/16", .private),
            ("100.64.0.0/10", .private), ("fc00::/7", .private),
            ("169.254.0.0/16", .linkLocal), ("fe80::/10", .linkLocal),
            ("224.0.0.0/4", .reserved), ("240.0.0.0/4", .reserved), ("ff00::/8", .reserved),
            ("192.0.0.0/24", .special), ("192.0.2.0/24", .special), ("198.51.100.0/24", .special),
            ("203.0.113.0/24", .special), ("198.18.0.0/15", .special), ("192.88.99.0/24", .special),
            ("2001::/23", .special), ("2001:db8::/32", .special), ("3fff::/20", .special), ("100::/64", .special),
            ("64:ff9b:1::/48", .special),
        ] as [(String, WebhookAddressClass)]).map { (IPNetwork($0.0)!, $0.1) }
}
