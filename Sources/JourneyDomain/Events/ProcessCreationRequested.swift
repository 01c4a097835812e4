import Foundation

/// The intent to call Create Process for a new attempt, recorded before the call.
///
/// After a crash, an intent without `ProcessCreated` or `ProcessCreationFailed` is reconciled with
/// Unico by `unicoClientReference` before anything new is created.
public struct ProcessCreationRequested: JourneyEventPayload {
    public static let eventType = "ProcessCreationRequested"
    public let attempt: Int
    public let occurredAt: Date
    /// Sent to Unico as `clientReference`; deterministic per journey and attempt.
    public let unicoClientReference: String
    public let trigger: AttemptTrigger

    public init(attempt: Int, occurredAt: Date, unicoClientReference: String, trigger: AttemptTrigger) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.unicoClientReference = unicoClientReference
        self.trigger = trigger
    }

    /// The reference for `attempt` of `journeyID`: `"<journeyID>-a<attempt>"`.
    public static func unicoClientReference(journeyID: JourneyID, attempt: Int) -> String {
        "\(journeyID.rawValue)-a\(attempt)"
    }
}
