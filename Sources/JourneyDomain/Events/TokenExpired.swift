import Foundation

/// The attempt's `webAppToken` expired before a result; an `AttemptFailed` follows.
public struct TokenExpired: JourneyEventPayload {
    public static let eventType = "TokenExpired"
    public let attempt: Int
    public let occurredAt: Date
    public let expiresAt: Date
    public let detectedBy: TokenExpiryDetection

    public init(attempt: Int, occurredAt: Date, expiresAt: Date, detectedBy: TokenExpiryDetection) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.expiresAt = expiresAt.roundedToMicroseconds
        self.detectedBy = detectedBy
    }
}
