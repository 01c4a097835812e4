import Foundation

/// What a retention run would do at `now` (a dry run): counts and the subjects to erase.
public struct RetentionPlan: Sendable, Equatable, Encodable {
    public var now: Date
    /// Subjects whose last journey ended before ``erasureCutoff``, by reference, in reference order.
    public var subjectsToErase: [String]
    public var erasureCutoff: Date
    /// Stored idempotency answers older than ``idempotencyCutoff``.
    public var idempotencyAnswersToPurge: Int
    public var idempotencyCutoff: Date
    /// Ended journeys whose attempts' sealed tokens and links are dropped from the read model.
    public var journeysWithTokensToDrop: Int
    public var tokenCutoff: Date
    /// Idempotency keys answered or released before ``idempotencyKeyCutoff``, whose rows go.
    public var idempotencyKeysToDelete = 0
    public var idempotencyKeyCutoff: Date?
    /// Webhook deliveries delivered or given up before ``webhookDeliveryCutoff``, whose rows go.
    public var webhookDeliveriesToDelete = 0
    public var webhookDeliveryCutoff: Date?

    /// Subjects, answers and journeys in all: the length of a progress bar.
    public var total: Int {
        subjectsToErase.count + idempotencyAnswersToPurge + journeysWithTokensToDrop + idempotencyKeysToDelete
            + webhookDeliveriesToDelete
    }
}
