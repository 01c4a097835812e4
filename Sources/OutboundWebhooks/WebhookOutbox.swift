import Foundation
import Postgres

/// Writes webhook messages to the outbox inside the caller's transaction.
public enum WebhookOutbox {
    /// Queues `payload` as message `messageID` for `endpointID`, due at `now`.
    ///
    /// Call it on the connection of the transaction that records the journey event, so both
    /// commit or neither does. Enqueuing the same message id again for the endpoint is a no-op;
    /// returns whether a new delivery was queued. A delivery for a disabled endpoint is kept
    /// but never attempted.
    @discardableResult
    public static func enqueue(
        endpointID: UUID, messageID: String, type: String, payload: JSONB,
        now: Date = Date(), on connection: PostgresConnection
    ) throws -> Bool {
        let rows = try connection.query(
            OutboundWebhooksStatements.enqueue(
                endpointID: endpointID, messageID: messageID, type: type, payload: payload,
                now: now))
        return rows.affectedRows == 1
    }

    /// Queues the message for every enabled endpoint of API key `apiKeyID` subscribed to
    /// `type`, in the caller's transaction; idempotent per endpoint and message id. Returns how
    /// many were new.
    @discardableResult
    public static func enqueue(
        apiKeyID: UUID, messageID: String, type: String, payload: JSONB,
        now: Date = Date(), on connection: PostgresConnection
    ) throws -> Int {
        let rows = try connection.query(
            OutboundWebhooksStatements.enqueue(
                apiKeyID: apiKeyID, messageID: messageID, type: type, payload: payload,
                now: now))
        return rows.affectedRows
    }

    /// What the enabled endpoints of each key take: the union of their event types (a key
    /// absent from the answer has no enabled endpoint).
    public static func subscriptions(apiKeyIDs: [UUID], on connection: PostgresConnection) throws
        -> [UUID: Set<JourneyWebhookEventType>]
    {
        var wanted: [UUID: Set<JourneyWebhookEventType>] = [:]
        for row in try connection.query(OutboundWebhooksStatements.subscriptions(apiKeyIDs: apiKeyIDs)) {
            let keyID: UUID = try row.decode("api_key_id")
            let types =
                try row.decode("event_types", as: String?.self)
                .map { Set($0.split(separator: ",").map { JourneyWebhookEventType(rawValue: String($0)) }) }
                ?? Set(JourneyWebhookEventType.all)
            wanted[keyID, default: []].formUnion(types)
        }
        return wanted
    }
}
