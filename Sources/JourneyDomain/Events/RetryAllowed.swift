import Foundation

/// The workers allowed the next attempt of an SDK journey; the app's next token request creates it.
///
/// No process exists yet: an absent user costs nothing more, and the journey is abandoned at
/// `abandonAt` if the app never asks.
public struct RetryAllowed: JourneyEventPayload {
    public static let eventType = "RetryAllowed"
    /// The attempt that failed.
    public let attempt: Int
    public let occurredAt: Date
    /// When the journey is abandoned if no token is asked for (the policy's `abandonAfter`).
    public let abandonAt: Date

    public init(attempt: Int, occurredAt: Date, abandonAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.abandonAt = abandonAt.roundedToMicroseconds
    }
}
