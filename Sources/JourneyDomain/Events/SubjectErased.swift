import Foundation

/// The journey's subject was erased: its data key is destroyed, so every sealed field of the
/// journey (personal data, tokens, the Human Token) is unreadable from now on.
///
/// Carries who asked, when and why; never personal data. Status and timestamps stay.
public struct SubjectErased: JourneyEventPayload {
    public static let eventType = "SubjectErased"
    /// The journey's current attempt at the erasure (0 before the first).
    public let attempt: Int
    public let occurredAt: Date
    /// Who asked: an API key's actor (`api-key:…`), `cli` or a retention policy's name.
    public let requestedBy: String
    /// Why, in the caller's words (or the retention policy); never personal data.
    public let reason: String
    /// When the subject's data key was wiped (the same for every journey of the subject).
    public let erasedAt: Date

    public init(attempt: Int, occurredAt: Date, requestedBy: String, reason: String, erasedAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.requestedBy = requestedBy
        self.reason = reason
        self.erasedAt = erasedAt.roundedToMicroseconds
    }
}
