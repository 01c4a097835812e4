import Foundation

/// What a retention run did.
public struct RetentionOutcome: Sendable, Equatable, Encodable {
    public var now: Date
    /// The reason each erasure recorded.
    public var erasureReason: String
    /// Subjects erased by this run, by reference.
    public var subjectsErased: [String] = []
    /// Journeys that got their `SubjectErased` event in this run.
    public var journeysMarked = 0
    /// Subjects the read model named but the log showed still active or recent (a journey the
    /// read model had not folded yet): left alone.
    public var subjectsSkipped = 0
    /// Stored idempotency answers purged (the erasures' own purges included).
    public var idempotencyAnswersPurged = 0
    /// Ended journeys whose attempts' sealed tokens and links were dropped from the read model.
    public var journeysWithTokensDropped = 0
    /// Idempotency key rows deleted (answered or released long enough ago).
    public var idempotencyKeysDeleted = 0
    /// Webhook delivery rows deleted (delivered or given up long enough ago).
    public var webhookDeliveriesDeleted = 0

    /// Everything changed, in one number.
    public var total: Int {
        subjectsErased.count + idempotencyAnswersPurged + journeysWithTokensDropped + idempotencyKeysDeleted
            + webhookDeliveriesDeleted
    }
}
