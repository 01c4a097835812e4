import Foundation

/// The attempt's `webAppToken` was handed to the app.
public struct TokenIssued: JourneyEventPayload {
    public static let eventType = "TokenIssued"
    public var attempt: Int
    public var occurredAt: Date
    public var expiresAt: Date
    /// True when the same token had been handed out before.
    public var reused: Bool

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, reused: Bool) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
        self.reused = reused
    }
}
