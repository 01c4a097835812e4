import Foundation

/// The app reported an SDK callback: `onSuccess` with a process id or `onErrorSelfie` with a code.
public struct CallbackReceived: JourneyEventPayload {
    public static let eventType = "CallbackReceived"
    public var attempt: Int
    public var occurredAt: Date
    public var outcome: CallbackOutcome
    /// True when the attempt had already been replaced; recorded for audit, it moves nothing.
    public var superseded: Bool

    public init(attempt: Int, occurredAt: Date, outcome: CallbackOutcome, superseded: Bool = false) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.outcome = outcome
        self.superseded = superseded
    }
}
