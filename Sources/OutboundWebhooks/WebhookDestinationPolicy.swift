import Foundation

/// Where outbound webhooks may go (SSRF): never to an unspecified, loopback, private,
/// link-local, metadata or reserved address (``WebhookAddressClass``) unless the allow-list
/// names the host or a network holding the address.
///
/// Checked after resolving the name, at send time (``check(host:resolver:)``, every address the name
/// resolves to must pass), and at registration when the host is an IP literal
/// (``checkRegistration(url:)``). The allow-list is configuration
/// (`JOURNEYS_WEBHOOK_ALLOW_HOSTS`, see ``init(allowList:)``, and per tenant
/// `JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS`, see ``withTenants(_:)``); tests and local receivers use it
/// for loopback. The dispatcher connects only to the addresses ``check(host:resolver:)`` returned
/// (the HTTP client never resolves again), so a name whose DNS answer changes after the check
/// (rebinding) cannot reach a refused address.
public struct WebhookDestinationPolicy: Sendable, Equatable {
    /// The configuration variable holding the allow-list.
    public static let variable = "JOURNEYS_WEBHOOK_ALLOW_HOSTS"

    /// Host names allowed whatever they resolve to (lowercased, no trailing dot).
    public var allowedHosts: Set<String>
    /// Networks whose addresses are allowed.
    public var allowedNetworks: [IPNetwork]
    /// More hosts and networks allowed for the endpoints of one tenant's keys only, by tenant
    /// name (`JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS`, see ``withTenants(_:)``). Default none.
    public var tenantAllowances: [String: WebhookDestinationPolicy] = [:]

    /// The configuration variable holding the per-tenant allow-lists.
    public static let tenantVariable = "JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS"

    /// Refuses every special address: the safe default.
    public init(allowedHosts: Set<String> = [], allowedNetworks: [IPNetwork] = []) {
        self.allowedHosts = Set(allowedHosts.map(Self.normalized))
        self.allowedNetworks = allowedNetworks
    }

    /// Parses a comma-separated allow-list of host names, IP addresses and CIDR blocks
    /// (`127.0.0.1,::1`, `10.20.0.0/16`, `hooks.internal`); blank entries are skipped.
    ///
    /// Throws `invalid_configuration` naming the variable and the entry that is none of these.
    public init(allowList: String) throws(WebhookError) {
        var hosts: Set<String> = []
        var networks: [IPNetwork] = []
        for raw in allowList.split(separator: ",") {
            let entry = raw.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            if let network = IPNetwork(entry) {
                networks.append(network)
            } else if !entry.contains("/"), Self.isHostName(entry) {
                hosts.insert(Self.normalized(entry))
            } else {
                throw WebhookError(
                    .invalidConfiguration,
                    "\(Self.variable): '\(entry)' is not a host name, an IP address or a CIDR block")
            }
        }
        self.init(allowedHosts: hosts, allowedNetworks: networks)
    }

    /// Adds per-tenant allow-lists from `text`: `tenant=entry,entry;tenant=entry`, each entry as in
    /// ``init(allowList:)`` (`acme=10.20.0.0/16,hooks.acme.internal;globex=192.168.7.7`). A tenant's
    /// entries open those destinations to the endpoints of that tenant's keys only.
    ///
    /// Throws `invalid_configuration` naming the variable and the part that does not parse.
    public func withTenants(_ text: String) throws(WebhookError) -> WebhookDestinationPolicy {
        var policy = self
        for raw in text.split(separator: ";") {
            let part = raw.trimmingCharacters(in: .whitespaces)
            if part.isEmpty { continue }
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                throw WebhookError(
                    .invalidConfiguration,
                    "\(Self.tenantVariable): '\(part.prefix(80))' is not tenant=host,network,...")
            }
            let entries: WebhookDestinationPolicy
            do {
                entries = try WebhookDestinationPolicy(allowList: pieces[1])
            } catch {
                throw WebhookError(
                    .invalidConfiguration,
                    error.message.replacingOccurrences(of: Self.variable, with: "\(Self.tenantVariable) (\(pieces[0]))"))
            }
            var merged = policy.tenantAllowances[pieces[0]] ?? WebhookDestinationPolicy()
            merged.allowedHosts.formUnion(entries.allowedHosts)
            merged.allowedNetworks += entries.allowedNetworks
            policy.tenantAllowances[pieces[0]] = merged
        }
        return policy
    }

    /// The policy for the endpoints of `tenant`'s keys: the shared allow-list plus the tenant's own.
    public func forTenant(_ tenant: String?) -> WebhookDestinationPolicy {
        guard let tenant, let own = tenantAllowances[tenant] else {
            return WebhookDestinationPolicy(allowedHosts: allowedHosts, allowedNetworks: allowedNetworks)
        }
        return WebhookDestinationPolicy(
            allowedHosts: allowedHosts.union(own.allowedHosts),
            allowedNetworks: allowedNetworks + own.allowedNetworks)
    }

    /// Loopback allowed (`127.0.0.0/8`, `::1`), as local receivers and tests need.
    public static let loopback = WebhookDestinationPolicy(
        allowedNetworks: [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!])

    /// Why `address` (reached through `host`) is refused, or nil when it may be reached.
    public func refusal(_ address: IPAddress, host: String) -> String? {
        guard let kind = WebhookAddressClass.of(address) else { return nil }
        if allowedHosts.contains(Self.normalized(host)) || allowedNetworks.contains(where: { $0.contains(address) }) {
            return nil
        }
        let subject =
            IPAddress(hostLiteral: Self.bare(host)) == nil ? "host \(host) resolves to \(address), " : "host \(address) is "
        return subject + "\(kind.phrase); outbound webhooks refuse it unless \(Self.variable) names it"
    }

    /// At registration: refuses a URL whose host is an IP literal that ``refusal(_:host:)`` refuses.
    /// Names are checked when sending, after resolving them.
    public func checkRegistration(url: String) throws(WebhookError) {
        guard let host = URLComponents(string: url)?.host else { return }
        let bare = Self.bare(host)
        guard let address = IPAddress(hostLiteral: bare), let reason = refusal(address, host: bare) else { return }
        throw WebhookError(.destinationRefused, "url: " + reason)
    }

    /// At send time: resolves `host` with `resolver` (or reads its literal) and checks every
    /// address; returns them, in resolver order, for the caller to connect to (never resolving again).
    ///
    /// Throws `destination_refused` with the reason, or `host_unresolved`.
    @discardableResult
    public func check(host: String, resolver: HostResolver = .system) async throws(WebhookError) -> [IPAddress] {
        let bare = Self.bare(host)
        let addresses: [IPAddress]
        if let literal = IPAddress(hostLiteral: bare) {
            addresses = [literal]
        } else {
            addresses = try await resolver.addresses(of: bare)
        }
        for address in addresses {
            if let reason = refusal(address, host: bare) { throw WebhookError(.destinationRefused, reason) }
        }
        return addresses
    }

    static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    static func normalized(_ host: String) -> String {
        let lowered = bare(host).lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    static func isHostName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}
