import Foundation
import Postgres

/// One delivery as listed: where it stands, never its payload or the endpoint's secret.
public struct WebhookDeliveryRecord: Sendable, Hashable {
    /// Where a delivery stands.
    public enum Status: String, Sendable, Hashable {
        /// Waiting for its next attempt (or for its endpoint to be enabled again).
        case pending
        /// A 2xx answered it.
        case delivered
        /// Its retries are spent, or its endpoint answered `410 Gone`.
        case givenUp = "given up"
    }

    public let id: UUID
    public let endpointID: UUID
    /// The Standard Webhooks `webhook-id` (`msg_<event id>`), the same for every resend.
    public let messageID: String
    public let eventType: String
    public let createdAt: Date
    public let attempts: Int
    public let nextAttemptAt: Date?
    public let lastAttemptAt: Date?
    public let lastStatus: Int?
    /// Why the last attempt failed (an HTTP status, a transport error, a refused destination).
    public let lastError: String?
    public let deliveredAt: Date?
    public let givenUpAt: Date?
    /// The delivery this one sends again, for a resend.
    public let resendOf: UUID?

    public var status: Status {
        if deliveredAt != nil { return .delivered }
        if givenUpAt != nil { return .givenUp }
        return .pending
    }

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        endpointID = try row.decode("endpoint_id")
        messageID = try row.decode("message_id")
        eventType = try row.decode("event_type")
        createdAt = try row.decode("created_at")
        attempts = try row.decode("attempt_count")
        nextAttemptAt = try row.decode("next_attempt_at")
        lastAttemptAt = try row.decode("last_attempt_at")
        lastStatus = try row.decode("last_status")
        lastError = try row.decode("last_error")
        deliveredAt = try row.decode("delivered_at")
        givenUpAt = try row.decode("given_up_at")
        resendOf = try row.decode("resend_of")
    }
}
