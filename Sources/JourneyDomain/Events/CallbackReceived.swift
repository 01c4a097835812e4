import Foundation

/// The app reported an SDK callback: `onSuccess` with a process id or `onErrorSelfie` with a code.
public struct CallbackReceived: JourneyEventPayload {
    public static let eventType = "CallbackReceived"
    public let attempt: Int
    public let occurredAt: Date
    public let outcome: CallbackOutcome
    /// True when the attempt had already been replaced; recorded for audit, it moves nothing.
    public let superseded: Bool

    public init(attempt: Int, occurredAt: Date, outcome: CallbackOutcome, superseded: Bool = false) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.outcome = outcome
        self.superseded = superseded
    }
}
