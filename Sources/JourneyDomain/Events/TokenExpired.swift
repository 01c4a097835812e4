import Foundation

/// The attempt's `webAppToken` expired before a result; an `AttemptFailed` follows.
public struct TokenExpired: JourneyEventPayload {
    public static let eventType = "TokenExpired"
    public var attempt: Int
    public var occurredAt: Date
    public var expiresAt: Date
    public var detectedBy: TokenExpiryDetection

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, detectedBy: TokenExpiryDetection) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.expiresAt = expiresAt
        self.detectedBy = detectedBy
    }
}
