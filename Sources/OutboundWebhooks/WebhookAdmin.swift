import Foundation
import Postgres

/// The webhook endpoints and deliveries of one tenant, as the API manages them
/// (`/v1/webhook-endpoints`, scope `webhooks:admin`).
///
/// An endpoint belongs to an API key: it receives the messages of the journeys that key started,
/// and nothing once the key is revoked. A tenant owns its keys, so an administering key of the
/// tenant sees and changes the endpoints of every key of the tenant, and those only: another
/// tenant's endpoint or delivery answers exactly as one that does not exist.
public struct WebhookAdmin: Sendable {
    public let client: PostgresClient
    public let sealer: WebhookSecretSealer
    /// Which IP-literal hosts may be registered (with each tenant's own allow-list).
    public let destinations: WebhookDestinationPolicy
    private let now: @Sendable () -> Date

    public init(
        client: PostgresClient, sealer: WebhookSecretSealer,
        destinations: WebhookDestinationPolicy = WebhookDestinationPolicy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.sealer = sealer
        self.destinations = destinations
        self.now = now
    }

    /// One page of an endpoint's deliveries, newest first.
    public struct DeliveryPage: Sendable {
        public let deliveries: [WebhookDeliveryRecord]
        /// The keyset to pass as `before` for the next page; nil on the last page.
        public let next: (createdAt: Date, id: UUID)?
    }

    /// Every endpoint of `tenant`'s keys, newest first.
    public func endpoints(tenant: String) async throws -> [WebhookEndpoint] {
        try await client.query(OutboundWebhooksStatements.tenantEndpoints(tenant: tenant)).map(WebhookEndpoint.init(row:))
    }

    /// Endpoint `id` of `tenant`; `endpoint_not_found` otherwise.
    public func endpoint(_ id: UUID, tenant: String) async throws -> WebhookEndpoint {
        try await client.transaction { connection in try Self.find(id, tenant: tenant, on: connection) }
    }

    /// Creates an enabled endpoint for key `apiKeyID` of `tenant` at `url`, receiving `eventTypes`
    /// (nil: every type), with a new secret returned once.
    ///
    /// Throws `key_not_found` (no such key in the tenant), `key_revoked`, `invalid_argument` (the
    /// URL) or `destination_refused` (an IP-literal host the tenant's policy refuses).
    public func create(
        tenant: String, apiKeyID: UUID, url: String,
        eventTypes: [JourneyWebhookEventType]?
    ) async throws -> (endpoint: WebhookEndpoint, secret: WebhookSecret) {
        let policy = destinations.forTenant(tenant)
        let url = try WebhookURL.validate(url)
        try policy.checkRegistration(url: url)
        let (sealer, now) = (sealer, now())
        return try await client.transaction { connection in
            guard let key = try connection.query(OutboundWebhooksStatements.tenantKey(apiKeyID, tenant: tenant)).first else {
                throw WebhookError(.keyNotFound, "no API key of this tenant has the id \(apiKeyID.uuidString.lowercased())")
            }
            guard try !key.decode("revoked", as: Bool.self) else {
                throw WebhookError(.keyRevoked, "API key \(apiKeyID.uuidString.lowercased()) is revoked")
            }
            let secret = WebhookSecret.generate()
            let id = try WebhookEndpoints.create(
                apiKeyID: apiKeyID, url: url, secret: secret, sealer: sealer,
                eventTypes: eventTypes, destinations: policy, now: now, on: connection)
            return (try Self.find(id, tenant: tenant, on: connection), secret)
        }
    }

    /// Disables endpoint `id` of `tenant` with `reason` (a disabled one keeps its first reason);
    /// its pending deliveries wait until it is enabled again.
    public func disable(_ id: UUID, tenant: String, reason: String) async throws -> WebhookEndpoint {
        let now = now()
        return try await client.transaction { connection in
            _ = try Self.find(id, tenant: tenant, on: connection)
            try connection.query(OutboundWebhooksStatements.disableEndpoint(id, at: now, reason: reason))
            return try Self.find(id, tenant: tenant, on: connection)
        }
    }

    /// Enables endpoint `id` of `tenant` and forgets its run of failures; its pending deliveries go out.
    ///
    /// Throws `key_revoked` when its key is revoked, `secret_missing` when it has no secret.
    public func enable(_ id: UUID, tenant: String) async throws -> WebhookEndpoint {
        try await client.transaction { connection in
            let endpoint = try Self.find(id, tenant: tenant, on: connection)
            guard !endpoint.keyRevoked else {
                throw WebhookError(
                    .keyRevoked,
                    "the endpoint's API key (\(endpoint.apiKeyPrefix)) is revoked; "
                        + "register the endpoint under an active key")
            }
            guard endpoint.secretKeyID != nil else {
                throw WebhookError(.secretMissing, "the endpoint has no secret; set it again with 'journeys webhooks set'")
            }
            try connection.query(OutboundWebhooksStatements.enableEndpoint(id))
            return try Self.find(id, tenant: tenant, on: connection)
        }
    }

    /// Up to `limit` deliveries of endpoint `id` of `tenant`, newest first, older than `before`.
    public func deliveries(
        endpoint id: UUID, tenant: String, before: (createdAt: Date, id: UUID)?,
        limit: Int
    ) async throws -> DeliveryPage {
        try await client.transaction { connection in
            _ = try Self.find(id, tenant: tenant, on: connection)
            let rows = try connection.query(OutboundWebhooksStatements.endpointDeliveries(id, before: before, limit: limit + 1))
            let records = try rows.map(WebhookDeliveryRecord.init(row:))
            let page = Array(records.prefix(limit))
            let next = records.count > limit ? page.last.map { ($0.createdAt, $0.id) } : nil
            return DeliveryPage(deliveries: page, next: next)
        }
    }

    /// Resends delivery `id` when it belongs to an endpoint of `tenant` (``WebhookDeliveryLog/resend(_:)``).
    ///
    /// Throws `delivery_not_found` (also for another tenant's), `delivery_pending`.
    public func resend(delivery id: UUID, tenant: String) async throws -> WebhookDeliveryRecord {
        let owner = try await client.query(OutboundWebhooksStatements.deliveryTenant(id)).first
            .map { try $0.decode("tenant", as: String.self) }
        guard owner == tenant else {
            throw WebhookError(.deliveryNotFound, "no webhook delivery has the id \(id.uuidString.lowercased())")
        }
        return try await WebhookDeliveryLog(client: client, now: now).resend(id)
    }

    static func find(_ id: UUID, tenant: String, on connection: PostgresConnection) throws -> WebhookEndpoint {
        guard let row = try connection.query(OutboundWebhooksStatements.tenantEndpoint(id, tenant: tenant)).first else {
            throw WebhookError(.endpointNotFound, "no webhook endpoint has the id \(id.uuidString.lowercased())")
        }
        return try WebhookEndpoint(row: row)
    }
}
