import Foundation

/// The attempt's `link` was first handed to the app, which cannot use the SDK Lite; later reads
/// of it are not recorded (journeys recorded before issue 23 hold one per read).
public struct LinkIssued: JourneyEventPayload {
    public static let eventType = "LinkIssued"
    public let attempt: Int
    public let occurredAt: Date
    /// The expiry of the attempt's process token, which the link shares.
    public let expiresAt: Date

    public init(attempt: Int, occurredAt: Date, expiresAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.expiresAt = expiresAt.roundedToMicroseconds
    }
}
