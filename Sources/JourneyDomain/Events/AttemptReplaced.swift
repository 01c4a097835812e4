import Foundation

/// A new attempt replaced the current one before it failed or expired: the app asked for a token
/// after the capture opened (a new capture; a result that still comes for the old one is fetched),
/// or with under a minute of its token left. Decided with the new attempt's
/// `ProcessCreationRequested`, so every attempt that ends without a result has one ending event.
public struct AttemptReplaced: JourneyEventPayload {
    public static let eventType = "AttemptReplaced"

    /// Why the attempt was replaced.
    public enum Reason: String, Codable, Sendable, Hashable, CaseIterable {
        /// The capture had been opened; the app asked for a token for a new capture.
        case newCapture
        /// The capture had not been opened and under a minute of the token remained.
        case tokenRefresh
    }

    public let attempt: Int
    public let occurredAt: Date
    /// The attempt that replaces it.
    public let replacedBy: Int
    public let reason: Reason

    public init(attempt: Int, occurredAt: Date, replacedBy: Int, reason: Reason) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.replacedBy = replacedBy
        self.reason = reason
    }
}
