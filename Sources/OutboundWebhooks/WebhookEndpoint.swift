import Foundation
import Postgres

/// An endpoint as listed: everything but its secret, which is only ever shown when issued.
public struct WebhookEndpoint: Sendable, Hashable {
    public let id: UUID
    public let apiKeyID: UUID
    /// The owning key's prefix.
    public let apiKeyPrefix: String
    /// Whether the owning key is revoked: the endpoint then receives nothing, enabled or not.
    public let keyRevoked: Bool
    public let url: String
    public let createdAt: Date
    public let disabledAt: Date?
    public let disabledReason: String?
    /// Id of the KEK that sealed the secret; nil for an endpoint whose plain secret was dropped.
    public let secretKeyID: String?
    /// The event types it receives; nil for every type (``JourneyWebhookEventType``).
    public let eventTypes: [String]?
    /// When its current run of failed attempts began; nil after a 2xx (or before any failure).
    public let failingSince: Date?

    public var isEnabled: Bool { disabledAt == nil }

    /// Whether it receives messages of `type`.
    public func subscribes(to type: JourneyWebhookEventType) -> Bool {
        eventTypes?.contains(type.rawValue) ?? true
    }

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        apiKeyID = try row.decode("api_key_id")
        apiKeyPrefix = try row.decode("api_key_prefix", as: String?.self) ?? ""
        keyRevoked = try row.decode("key_revoked", as: Bool?.self) ?? false
        failingSince = try row.decode("failing_since")
        url = try row.decode("url")
        createdAt = try row.decode("created_at")
        disabledAt = try row.decode("disabled_at")
        disabledReason = try row.decode("disabled_reason")
        secretKeyID = try row.decode("secret_key_id")
        eventTypes = try row.decode("event_types", as: String?.self).map { $0.split(separator: ",").map(String.init) }
    }
}
