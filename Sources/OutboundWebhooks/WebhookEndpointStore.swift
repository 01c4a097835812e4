import AccessControl
import Foundation
import Postgres

/// The webhook endpoint of each API key, as `journeys webhooks` manages it: set, show, disable.
///
/// A key has one managed endpoint (the newest; more can exist through
/// ``WebhookEndpoints/create(id:apiKeyID:url:secret:sealer:now:on:)``, and each gets every
/// message). Changes to one key's endpoints are serialized by a row lock on the key.
public struct WebhookEndpointStore: Sendable {
    public let client: PostgresClient
    public let sealer: WebhookSecretSealer
    /// Which IP-literal hosts may be registered; the default refuses every special address.
    public let destinations: WebhookDestinationPolicy
    private let now: @Sendable () -> Date

    /// `client` may be the application role; `now` stamps creation and disabling.
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

    /// What ``set(key:url:rotateSecret:events:)`` does to the endpoint's event types.
    public enum Subscription: Sendable, Equatable {
        /// Keep them (a new endpoint gets every type).
        case unchanged
        /// Every type, now and later.
        case all
        /// Exactly these.
        case only([JourneyWebhookEventType])

        /// `nil` (option not given): unchanged; otherwise ``JourneyWebhookEventType/parseList(_:)``.
        public init(option: String?) throws(WebhookError) {
            guard let option else { self = .unchanged; return }
            self = try JourneyWebhookEventType.parseList(option).map(Subscription.only) ?? .all
        }
    }

    /// What ``set(key:url:rotateSecret:)`` did.
    public struct SetResult: Sendable {
        public let endpoint: WebhookEndpoint
        /// The new secret, to show once; nil when the existing secret was kept.
        public let newSecret: WebhookSecret?
        /// Whether the endpoint was created rather than updated.
        public let created: Bool
    }

    /// Points key `reference`'s endpoint at `url` and enables it, creating it (with a new
    /// secret) when the key has none. The secret is kept unless `rotateSecret`, or the
    /// endpoint has no sealed secret; `events` sets the event types it receives.
    ///
    /// Throws `invalid_argument` (bad URL or reference, revoked key), `destination_refused`
    /// (an IP-literal host ``destinations`` refuses) or `key_not_found`.
    public func set(
        key reference: String, url: String, rotateSecret: Bool = false,
        events: Subscription = .unchanged
    ) async throws -> SetResult {
        let url = try WebhookURL.validate(url)
        try destinations.checkRegistration(url: url)
        let (sealer, destinations, now) = (sealer, destinations, now())
        return try await client.transaction { connection in
            let keyID = try Self.lockKey(reference, on: connection)
            if let current = try WebhookEndpoints.list(apiKeyID: keyID, on: connection).first {
                let secret = rotateSecret || current.secretKeyID == nil ? WebhookSecret.generate() : nil
                try WebhookEndpoints.update(
                    current.id, url: url, secret: secret, sealer: sealer, destinations: destinations,
                    on: connection)
                switch events {
                case .unchanged: break
                case .all: try WebhookEndpoints.subscribe(current.id, to: nil, on: connection)
                case .only(let types): try WebhookEndpoints.subscribe(current.id, to: types, on: connection)
                }
                let updated = try WebhookEndpoints.list(apiKeyID: keyID, on: connection).first { $0.id == current.id }
                return SetResult(endpoint: updated ?? current, newSecret: secret, created: false)
            }
            let secret = WebhookSecret.generate()
            var types: [JourneyWebhookEventType]?
            if case .only(let only) = events { types = only }
            let id = try WebhookEndpoints.create(
                apiKeyID: keyID, url: url, secret: secret, sealer: sealer, eventTypes: types,
                destinations: destinations, now: now, on: connection)
            let created = try WebhookEndpoints.list(apiKeyID: keyID, on: connection).first { $0.id == id }
            guard let created else { throw WebhookError(.invalidArgument, "endpoint \(id) vanished") }
            return SetResult(endpoint: created, newSecret: secret, created: true)
        }
    }

    /// The endpoints of key `reference`, newest first (empty when none is configured).
    public func endpoints(key reference: String) async throws -> (keyID: UUID, endpoints: [WebhookEndpoint]) {
        try await client.withConnection { connection in
            let keyID = try Self.resolveKey(reference, on: connection).id
            return (keyID, try WebhookEndpoints.list(apiKeyID: keyID, on: connection))
        }
    }

    /// Disables every enabled endpoint of key `reference`; returns how many. Pending deliveries
    /// wait, and go out if the endpoint is set again.
    @discardableResult
    public func disable(key reference: String, reason: String = "disabled by an operator") async throws -> Int {
        let now = now()
        return try await client.transaction { connection in
            let keyID = try Self.resolveKey(reference, on: connection).id
            return try connection.query(OutboundWebhooksStatements.disableEndpoints(apiKeyID: keyID, at: now, reason: reason))
                .affectedRows
        }
    }

    // MARK: - Keys

    /// The key with this id (UUID) or prefix (8 characters of a-z, 2-7), and whether it is revoked.
    static func resolveKey(
        _ reference: String, on connection: PostgresConnection,
        lock: Bool = false
    ) throws -> (id: UUID, revoked: Bool) {
        let reference = reference.trimmingCharacters(in: .whitespaces)
        let id = UUID(uuidString: reference)
        let lowered = reference.lowercased()
        let isPrefix = lowered.count == 8 && lowered.allSatisfy { ("a"..."z").contains($0) || ("2"..."7").contains($0) }
        guard id != nil || isPrefix else {
            throw WebhookError(.invalidArgument, "expected an API key id (UUID) or prefix (8 characters of a-z, 2-7)")
        }
        let prefix: String? = isPrefix ? lowered : nil
        guard let key = try APIKeyStore.key(id: id, prefix: prefix, lock: lock, on: connection) else {
            throw WebhookError(.keyNotFound, "no API key has the id or prefix '\(reference)'")
        }
        return key
    }

    /// Resolves and row-locks an unrevoked key.
    static func lockKey(_ reference: String, on connection: PostgresConnection) throws -> UUID {
        let key = try resolveKey(reference, on: connection, lock: true)
        guard !key.revoked else {
            throw WebhookError(.invalidArgument, "API key '\(reference.trimmingCharacters(in: .whitespaces))' is revoked")
        }
        return key.id
    }
}
