import Foundation
import JourneyDomain

/// What ``SubjectVault/erase(subject:)`` did: the subject's key is gone either way.
public struct ErasureResult: Sendable, Hashable {
    public let subject: SubjectReference
    /// When the key was first wiped (the tombstone's `erased_at`).
    public let erasedAt: Date
    /// True when an earlier call had already erased the subject; nothing changed this time.
    public let wasAlreadyErased: Bool

    public init(subject: SubjectReference, erasedAt: Date, wasAlreadyErased: Bool) {
        self.subject = subject
        self.erasedAt = erasedAt
        self.wasAlreadyErased = wasAlreadyErased
    }
}
