import Foundation

/// A journey's current state, folded from its events by ``Journey/evolve(_:_:)``.
public struct JourneyState: Hashable, Sendable, Codable {
    public var status: JourneyStatus = .notStarted
    /// Number of events folded; the stream version the state reflects.
    public var version = 0
    public var journeyID: JourneyID?
    public var environment: Environment?
    public var flow: Flow?
    public var purpose: Purpose?
    /// Sealed subject; workers unseal it to create a fresh process on retry.
    public var subject: SealedSubject?
    public var clientReference: String?
    public var retryPolicy: RetryPolicy = .standard
    public var startedAt: Date?
    /// Every attempt so far, in order; attempt n is at index n-1.
    public var attempts: [AttemptState] = []
    /// Code of the latest SDK error of a current attempt.
    public var lastErrorCode: SDKErrorCode?
    public var lastFailure: AttemptFailureReason?
    public var outcome: JourneyOutcome?
    public var humanToken: SealedField?
    public var completedAt: Date?
    public var abandonedAt: Date?
    public var abandonReason: AbandonReason?
    /// When the subject's data key was wiped; its sealed fields no longer open.
    public var subjectErasedAt: Date?
    /// Callbacks recorded for attempts that a newer attempt had replaced.
    public var supersededCallbacks = 0
    public var webhooksReceived = 0
    public var updatedAt: Date?

    public init() {}

    /// The latest attempt, if any.
    public var currentAttempt: AttemptState? { attempts.last }

    /// Number of the latest attempt; 0 before the first.
    public var currentAttemptNumber: Int { attempts.count }

    /// Attempts after the first.
    public var retryCount: Int { max(0, attempts.count - 1) }

    /// The attempt numbered `number`, if it exists.
    public func attempt(_ number: Int) -> AttemptState? {
        guard number >= 1, number <= attempts.count else { return nil }
        return attempts[number - 1]
    }

    /// The attempt whose process is `processID`, if any.
    public func attempt(processID: ProcessID) -> AttemptState? {
        attempts.last { $0.processID == processID }
    }
}
