import Foundation

/// The attempt's `webAppToken` was handed to the app.
public struct TokenIssued: JourneyEventPayload {
    public static let eventType = "TokenIssued"
    public let attempt: Int
    public let occurredAt: Date
    public let expiresAt: Date
    /// True when the same token had been handed out before: a second request before its capture
    /// opened (a double tap is one capture). Only an attempt's first reuse is recorded; later ones
    /// are answered from the state without an event. Journeys recorded before issue 12 also reused
    /// a token after its capture opened, and journeys recorded before issue 23 every reuse; such
    /// events still decode.
    public let reused: Bool

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, reused: Bool) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.expiresAt = expiresAt.roundedToMicroseconds
        self.reused = reused
    }
}
