import Foundation

/// The attempt's `webAppToken` was handed to the app.
public struct TokenIssued: JourneyEventPayload {
    public static let eventType = "TokenIssued"
    public let attempt: Int
    public let occurredAt: Date
    public let expiresAt: Date
    /// True when the same token had been handed out before: a second request before its capture
    /// opened (a double tap is one capture). Journeys recorded before issue 12 also reused a token
    /// after its capture opened; such events still decode.
    public let reused: Bool

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, reused: Bool) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.expiresAt = expiresAt.roundedToMicroseconds
        self.reused = reused
    }
}
