import Foundation
import HTTPServer
import Observability
import RateBudget

/// Applies ``RequestRateLimits`` through buckets shared by every `serve` process
/// (``PostgresRequestLimits``): one database round trip per authenticated request (none for a
/// client already over its limit in this process), after the credential is verified, so that
/// nobody can spend another's limit with a wrong secret.
///
/// Its middleware makes it the request task's ``current``; ``RequestAuthenticator`` then calls
/// ``admit(apiKey:tenant:route:)`` or ``admit(journey:route:)``. Over a limit: 429 `rate_limited`
/// (problem+json, `retryable: true`, `Retry-After` in whole seconds), counted in
/// `http_rate_limited_total{limit, route}` (route templates, never keys or ids). When the database
/// does not answer, the request goes on (it needs the database anyway) and is counted in
/// `http_rate_limit_unavailable_total`.
final class RequestRateLimiter: Sendable {
    @TaskLocal static var current: RequestRateLimiter?

    let limits: RequestRateLimits
    let buckets: PostgresRequestLimits
    let metrics: MetricsRegistry

    init(limits: RequestRateLimits, buckets: PostgresRequestLimits, metrics: MetricsRegistry) {
        self.limits = limits
        self.buckets = buckets
        self.metrics = metrics
    }

    /// Makes this limiter ``current`` for the request's task.
    var middleware: Middleware {
        { [self] request, next in try await Self.$current.withValue(self) { try await next(request) } }
    }

    /// A request authenticated by the API key `keyID` of `tenant`: its key's and tenant's limits.
    func admit(apiKey keyID: UUID, tenant: String, route: String?) async throws {
        var asked: [PostgresRequestLimits.Bucket] = []
        if let limit = limits.apiKey {
            asked.append(.init(key: "key:\(keyID.uuidString.lowercased())", rate: limit.rate, burst: limit.burst))
        }
        if let limit = limits.tenant { asked.append(.init(key: "tenant:\(tenant)", rate: limit.rate, burst: limit.burst)) }
        try await take(
            asked, cost: 1, limit: "api_key", route: route,
            detail: "Too many requests for this API key or its tenant.")
    }

    /// A request authenticated by a client token of `journey`: the journey's client-token limit.
    func admit(journey: UUID, route: String?) async throws {
        guard let limit = limits.clientToken else { return }
        try await take(
            [.init(key: "journey:\(journey.uuidString.lowercased())", rate: limit.rate, burst: limit.burst)],
            cost: 1, limit: "client_token", route: route, detail: "Too many requests with this journey's client tokens.")
    }

    /// An attempt at the Unico webhook token endpoint from `peer`: a failure (`failed`) takes one
    /// of the address's attempts, a success only checks that some are left.
    func admitWebhookToken(peer: String?, failed: Bool, route: String?) async throws {
        guard let limit = limits.webhookTokenFailures else { return }
        try await take(
            [.init(key: "webhook-token:\(Self.client(peer))", rate: limit.rate, burst: limit.burst)],
            cost: failed ? 1 : 0, limit: "webhook_token", route: route,
            detail: "Too many failed attempts from this address.", extra: ["error": "rate_limited"])
    }

    private func take(
        _ asked: [PostgresRequestLimits.Bucket], cost: Double, limit: String, route: String?, detail: String,
        extra: [String: String] = [:]
    ) async throws {
        guard !asked.isEmpty else { return }
        let wait: Duration?
        do {
            wait = try await buckets.take(asked, cost: cost)
        } catch {
            metrics.increment(
                "http_rate_limit_unavailable_total",
                help: "Requests let through because the rate limits' database did not answer.",
                labels: ["limit": limit])
            return
        }
        guard let wait else { return }
        metrics.increment(
            "http_rate_limited_total", help: "Requests refused 429 rate_limited, by limit and route template.",
            labels: ["limit": limit, "route": route ?? "unmatched"])
        let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
        throw Problem(
            status: .tooManyRequests, code: "rate_limited", detail: "\(detail) Retry after \(seconds) s.",
            extra: extra, headers: ["Retry-After": String(seconds)], retryable: true)
    }

    /// The client of an address: an IPv4 address, or an IPv6 address's /64 (one customer holds a
    /// whole /64); `unknown` without one.
    static func client(_ address: String?) -> String {
        guard var address, !address.isEmpty else { return "unknown" }
        if address.hasPrefix("["), let end = address.firstIndex(of: "]") {
            address = String(address[address.index(after: address.startIndex)..<end])
        }
        if let zone = address.firstIndex(of: "%") { address = String(address[..<zone]) }
        guard address.contains(":") else { return address }
        if address.lowercased().hasPrefix("::ffff:"), address.contains(".") { return String(address.dropFirst(7)) }
        let halves = address.components(separatedBy: "::")
        let head = halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 ? halves[1].split(separator: ":").map(String.init) : []
        let groups = head + Array(repeating: "0", count: max(0, 8 - head.count - tail.count)) + tail
        let prefix = groups.prefix(4).map { String(Int($0, radix: 16) ?? 0, radix: 16) }
        return prefix.joined(separator: ":") + "::/64"
    }
}
