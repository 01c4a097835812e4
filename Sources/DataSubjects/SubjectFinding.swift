import Foundation
import JourneyDomain

/// The answer to "which subject holds this document": the reference, never the document.
public struct SubjectFinding: Sendable, Equatable, Encodable {
    public var subjectReference: String
    /// Whether anything was ever recorded for the subject (a data key or a journey).
    public var known: Bool
    public var erased: Bool
    public var erasedAt: Date?
    /// The subject's journeys, oldest first.
    public var journeyIds: [String]

    init(reference: SubjectReference, known: Bool, erasedAt: Date?, journeyIds: [String]) {
        self.subjectReference = reference.rawValue
        self.known = known
        self.erased = erasedAt != nil
        self.erasedAt = erasedAt
        self.journeyIds = journeyIds
    }
}
