import Foundation

/// The attempt's `webAppToken` was handed to the app.
public struct TokenIssued: JourneyEventPayload {
    public static let eventType = "TokenIssued"
    public let attempt: Int
    public let occurredAt: Date
    public let expiresAt: Date
    /// True when the same token had been handed out before.
    public let reused: Bool

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, reused: Bool) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.expiresAt = expiresAt.roundedToMicroseconds
        self.reused = reused
    }
}
