import Foundation

/// An erasure of the journey's subject to record: who asked, why, and when its key was wiped.
public struct SubjectErasure: Hashable, Sendable {
    public var requestedBy: String
    public var reason: String
    public var erasedAt: Date

    public init(requestedBy: String, reason: String, erasedAt: Date) {
        self.requestedBy = requestedBy
        self.reason = reason
        self.erasedAt = erasedAt
    }
}
