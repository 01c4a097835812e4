import Foundation
import Postgres

/// Registers and reads webhook endpoints (one or more per API key) on a caller's connection.
public enum WebhookEndpoints {
    /// Creates an enabled endpoint for `apiKeyID` with `secret` sealed by `sealer`, receiving
    /// `eventTypes` (nil: every type); returns its id.
    ///
    /// Throws `invalid_argument` for a URL that ``WebhookURL/validate(_:)`` refuses and
    /// `destination_refused` for an IP-literal host that `destinations` refuses (the default
    /// policy refuses loopback, private, link-local and metadata addresses).
    @discardableResult
    public static func create(
        id: UUID = UUID(), apiKeyID: UUID, url: String, secret: WebhookSecret,
        sealer: WebhookSecretSealer, eventTypes: [JourneyWebhookEventType]? = nil,
        destinations: WebhookDestinationPolicy = WebhookDestinationPolicy(), now: Date = Date(),
        on connection: PostgresConnection
    ) throws -> UUID {
        let url = try WebhookURL.validate(url)
        try destinations.checkRegistration(url: url)
        let (sealed, keyID) = try sealer.seal(secret, endpointID: id)
        try connection.query(
            OutboundWebhooksStatements.insertEndpoint(
                id: id, apiKeyID: apiKeyID, url: url, sealedSecret: sealed, keyID: keyID,
                eventTypes: eventTypes?.map(\.rawValue), createdAt: now))
        return id
    }

    /// Points endpoint `id` at `url` and enables it; with `secret`, replaces its secret too.
    static func update(
        _ id: UUID, url: String, secret: WebhookSecret?, sealer: WebhookSecretSealer,
        destinations: WebhookDestinationPolicy, on connection: PostgresConnection
    ) throws {
        let url = try WebhookURL.validate(url)
        try destinations.checkRegistration(url: url)
        if let secret {
            let (sealed, keyID) = try sealer.seal(secret, endpointID: id)
            try connection.query(OutboundWebhooksStatements.updateEndpoint(id, url: url, sealedSecret: sealed, keyID: keyID))
        } else {
            try connection.query(OutboundWebhooksStatements.updateEndpoint(id, url: url))
        }
    }

    /// Sets which event types endpoint `id` receives (nil: every type).
    public static func subscribe(
        _ id: UUID, to eventTypes: [JourneyWebhookEventType]?,
        on connection: PostgresConnection
    ) throws {
        try connection.query(OutboundWebhooksStatements.updateEventTypes(id, eventTypes: eventTypes?.map(\.rawValue)))
    }

    /// The endpoints of `apiKeyID`, newest first.
    public static func list(apiKeyID: UUID, on connection: PostgresConnection) throws -> [WebhookEndpoint] {
        try connection.query(OutboundWebhooksStatements.endpoints(apiKeyID: apiKeyID)).map(WebhookEndpoint.init(row:))
    }

    /// When and why the endpoint was disabled, or nil while it is enabled.
    public static func disabled(_ id: UUID, on connection: PostgresConnection) throws -> (at: Date, reason: String)? {
        let rows = try connection.query(OutboundWebhooksStatements.disabled(id))
        guard let row = rows.first, let at = try row.decode("disabled_at", as: Date?.self) else { return nil }
        return (at, try row.decode("disabled_reason", as: String.self))
    }
}
