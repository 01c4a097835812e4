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

    /// Subjects, answers and journeys in all: the length of a progress bar.
    public var total: Int { subjectsToErase.count + idempotencyAnswersToPurge + journeysWithTokensToDrop }
}
