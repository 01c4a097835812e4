import Foundation
import Postgres

/// The outbound webhooks still to deliver (for `/metrics` and alerts).
public struct WebhookBacklog: Sendable, Equatable {
    /// Deliveries neither made nor given up.
    public let pending: Int64
    /// Of those, the ones that failed at least once and wait for a retry.
    public let failing: Int64
    /// When the oldest pending delivery was queued; nil when none is pending.
    public let oldestQueuedAt: Date?
    /// How many times endpoints were disabled for failing too long (a counter: never decreases).
    public var autoDisabled: Int64 = 0

    /// Seconds the oldest pending delivery has waited at `now`; 0 when none is pending.
    public func oldestAge(at now: Date) -> Double {
        oldestQueuedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
    }

    /// Reads the backlog; works with the application role.
    public static func read(client: PostgresClient) async throws -> WebhookBacklog {
        guard let row = try await client.query(OutboundWebhooksStatements.backlog).first else {
            return WebhookBacklog(pending: 0, failing: 0, oldestQueuedAt: nil)
        }
        return WebhookBacklog(
            pending: try row.decode(0), failing: try row.decode(1), oldestQueuedAt: try row.decode(2),
            autoDisabled: try row.decode(3))
    }
}
