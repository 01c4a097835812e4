import Foundation
import JourneyDomain

/// One claimed due item: what is due for which journey, as copied from `journey_state`.
public struct WorkItem: Hashable, Sendable {
    public var journeyID: JourneyID
    public var kind: DueWork.Kind
    /// The attempt the work is about (for `retry`, the attempt that failed).
    public var attempt: Int
    /// When the read model said it was due; part of the item's identity.
    public var dueAt: Date
    /// Claims so far, this one included.
    public var tries: Int

    public init(journeyID: JourneyID, kind: DueWork.Kind, attempt: Int, dueAt: Date, tries: Int = 1) {
        self.journeyID = journeyID
        self.kind = kind
        self.attempt = attempt
        self.dueAt = dueAt
        self.tries = tries
    }
}
