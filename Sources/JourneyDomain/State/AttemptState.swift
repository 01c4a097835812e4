import Foundation

/// One attempt (one Unico process) as folded from its events.
public struct AttemptState: Hashable, Sendable, Codable {
    public var number: Int
    public var unicoClientReference: String
    public var trigger: AttemptTrigger
    public var requestedAt: Date

    public var processID: ProcessID?
    public var processCreatedAt: Date?
    public var webAppToken: SealedField?
    public var processToken: SealedField?
    public var link: SealedField?
    public var tokenExpiresAt: Date?
    public var creationFailedAt: Date?
    public var creationFailure: ProcessCreationFailure?

    public var firstTokenIssuedAt: Date?
    /// When the last recorded `TokenIssued` was (reuses after the first one are not recorded).
    public var lastTokenIssuedAt: Date?
    /// `TokenIssued` events recorded for the attempt: the first issue and at most one reuse
    /// (journeys recorded before reuses were recorded once may hold more).
    public var tokensIssued = 0
    public var captureOpenedAt: Date?
    /// When the app reported that the user closed the capture.
    public var closedByUserAt: Date?
    /// When the app reported that the capture session timed out.
    public var sessionTimedOutAt: Date?
    /// When the app reported that face inference timed out (the capture went on, manually).
    public var faceInferenceTimedOutAt: Date?
    /// When the attempt's `link` was first handed to the app.
    public var linkIssuedAt: Date?
    /// First callback recorded for this attempt.
    public var callbackAt: Date?
    public var callbackOutcome: CallbackOutcome?
    public var webhookAt: Date?
    public var awaitingResultSince: Date?
    public var pendingFetches = 0
    public var nextFetchAt: Date?
    public var resultFetchedAt: Date?
    public var processState: ProcessState?
    public var processResult: ProcessResult?

    public var tokenExpiredAt: Date?
    public var failedAt: Date?
    public var failureReason: AttemptFailureReason?
    public var retryAt: Date?
    /// When the workers allowed the next attempt (SDK journeys), and when the journey is abandoned
    /// if the app does not ask for it.
    public var retryAllowedAt: Date?
    public var abandonAt: Date?
    /// When a newer attempt replaced this one.
    public var supersededAt: Date?

    public init(number: Int, unicoClientReference: String, trigger: AttemptTrigger, requestedAt: Date) {
        self.number = number
        self.unicoClientReference = unicoClientReference
        self.trigger = trigger
        self.requestedAt = requestedAt
    }

    /// Seconds of token life left at `now`; nil before the process exists.
    public func tokenRemaining(at now: Date) -> TimeInterval? {
        tokenExpiresAt.map { $0.timeIntervalSince(now) }
    }

    /// True once a reuse of the attempt's token was recorded (`TokenIssued` with `reused`, or more
    /// than one issue in journeys recorded before reuses were recorded once): later reuses are
    /// answered from the state without an event.
    public var tokenReuseRecorded: Bool { tokensIssued > 1 }

    /// True once the capture ended on the device (a callback or a reported drop-off).
    public var captureEnded: Bool {
        callbackAt != nil || closedByUserAt != nil || sessionTimedOutAt != nil
    }
}
