import Foundation
import Postgres

/// The delivery history of each API key's endpoints, and resending one delivery.
///
/// A resend adds a new delivery row (`resend_of` names the one it sends again) with the same
/// message id, type and payload, due at once with a fresh retry schedule; the original row and
/// its attempts stay as they were. Receivers that deduplicate on `webhook-id` see the same id.
/// The body's `timestamp` is the resend's. Only a delivery that is not pending can be resent,
/// and only while no other delivery of its message to that endpoint is pending.
public struct WebhookDeliveryLog: Sendable {
    public let client: PostgresClient
    private let now: @Sendable () -> Date

    /// `client` may be the application role; `now` stamps resends.
    public init(client: PostgresClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// The newest `limit` deliveries to the endpoints of key `reference` (id or prefix), newest first.
    ///
    /// Throws `invalid_argument` (bad reference or limit) or `key_not_found`.
    public func recent(key reference: String, limit: Int = 20) async throws -> (keyID: UUID, deliveries: [WebhookDeliveryRecord])
    {
        guard (1...1000).contains(limit) else {
            throw WebhookError(.invalidArgument, "limit must be between 1 and 1000")
        }
        return try await client.withConnection { connection in
            let keyID = try WebhookEndpointStore.resolveKey(reference, on: connection).id
            let rows = try connection.query(OutboundWebhooksStatements.recentDeliveries(apiKeyID: keyID, limit: limit))
            return (keyID, try rows.map(WebhookDeliveryRecord.init(row:)))
        }
    }

    /// Queues delivery `id`'s message again as a new delivery; returns it.
    ///
    /// Throws `delivery_not_found`, or `delivery_pending` while a delivery of that message to
    /// that endpoint is still pending (naming it and its next try).
    public func resend(_ id: UUID) async throws -> WebhookDeliveryRecord {
        let now = now()
        return try await client.transaction { connection in
            guard
                let original = try connection.query(OutboundWebhooksStatements.delivery(id)).first
                    .map(WebhookDeliveryRecord.init(row:))
            else {
                throw WebhookError(.deliveryNotFound, "no webhook delivery has the id \(id.uuidString.lowercased())")
            }
            if let pending = try connection.query(
                OutboundWebhooksStatements.pendingDelivery(
                    endpointID: original.endpointID, messageID: original.messageID)
            ).first {
                let pendingID: UUID = try pending.decode("id")
                let next: Date = try pending.decode("next_attempt_at")
                let which =
                    pendingID == id
                    ? "it is still pending" : "delivery \(pendingID.uuidString.lowercased()) of the same message is pending"
                throw WebhookError(
                    .deliveryPending,
                    "cannot resend delivery \(id.uuidString.lowercased()): \(which) "
                        + "(next try \(next.formatted(.iso8601)))")
            }
            let newID = UUID()
            try connection.query(OutboundWebhooksStatements.resend(id, id: newID, now: now))
            guard let created = try connection.query(OutboundWebhooksStatements.delivery(newID)).first else {
                throw WebhookError(.deliveryNotFound, "the resent delivery \(newID.uuidString.lowercased()) vanished")
            }
            return try WebhookDeliveryRecord(row: created)
        }
    }
}
