import Foundation
import JourneyDomain

/// What an erasure did: when the key was wiped, and what this call changed.
public struct SubjectErasureReport: Sendable, Equatable, Encodable {
    public var subjectReference: String
    /// When the subject's data key was wiped (by this call or an earlier one).
    public var erasedAt: Date
    /// True when an earlier call had done everything: nothing changed this time.
    public var alreadyErased: Bool
    /// The subject's journeys, oldest first.
    public var journeyIds: [String]
    /// Journeys that got their `SubjectErased` event in this call.
    public var journeysMarked: Int
    /// Of those, journeys that were still active and were abandoned first.
    public var journeysAbandoned: Int
    /// Stored idempotency answers (with live tokens) dropped in this call.
    public var idempotencyAnswersPurged: Int
}
