import Foundation

/// The company or an operator cancelled the journey: who and why. Always followed, in the same
/// append, by `JourneyAbandoned` with reason kind `cancelled`, which ends the journey; so every
/// reader of endings (projections, reports, the `journey.abandoned` webhook) sees a cancelled
/// journey as abandoned, and this event keeps the request itself for the audit trail.
///
/// Never personal data: `reason` is checked by ``JourneyCancellation/checkedReason(_:)``.
public struct JourneyCancelled: JourneyEventPayload {
    public static let eventType = "JourneyCancelled"
    /// The journey's current attempt at the cancellation (0 before the first).
    public let attempt: Int
    public let occurredAt: Date
    /// Why, in the caller's words.
    public let reason: String
    /// Who asked: an API key's actor (`api-key:…`) or `cli`.
    public let actor: String

    public init(attempt: Int, occurredAt: Date, reason: String, actor: String) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.reason = reason
        self.actor = actor
    }
}
