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
    /// The tenant the start recorded; nil for journeys started before tenants (the default one).
    public var tenant: String?
    public var retryPolicy: RetryPolicy = .standard
    public var startedAt: Date?
    /// The start's deadline, if it set one: the journey is abandoned (`deadlineReached`) then.
    public var deadline: Date?
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

    /// The tenant owning the journey: the recorded one, else the default tenant.
    public var tenantName: String { tenant ?? JourneyStarted.defaultTenant }

    /// When the journey is abandoned (`maxAgeReached`) if still open: its start plus the policy's
    /// `maximumAge`; nil before the start.
    public var maxAgeAt: Date? {
        startedAt.map { $0.addingTimeInterval(retryPolicy.maximumAge) }
    }

    /// True when the journey is still open at or past ``maxAgeAt``.
    public func isPastMaxAge(_ now: Date) -> Bool {
        guard status != .notStarted, !status.isTerminal, let at = maxAgeAt else { return false }
        return now >= at
    }

    /// True when the journey has a deadline and `now` is at or past it.
    public func isPastDeadline(_ now: Date) -> Bool {
        deadline.map { now >= $0 } ?? false
    }

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

    /// True when Unico notifies the person with the link (the subject has notification channels):
    /// the workers create retries' processes; SDK journeys wait for the app's token request.
    public var isLinkJourney: Bool { !(subject?.notificationChannels.isEmpty ?? true) }

    /// True when attempt `number` has a result to fetch: the current attempt while the journey
    /// awaits its result, an earlier one once a success callback or webhook said its capture ended.
    public func awaitsResult(_ number: Int) -> Bool {
        guard status != .completed, status != .abandoned || learnsLateResults, let attempt = attempt(number),
            attempt.processID != nil,
            attempt.awaitingResultSince != nil, attempt.resultFetchedAt == nil
        else { return false }
        // A journey the policy gave up on still learns a result Unico announced later (no approval
        // is lost); not one abandoned on request or whose subject was erased.
        return number < currentAttemptNumber || status == .awaitingResult || learnsLateResults
    }

    /// An abandoned journey that still records a result Unico announces later: abandoned by the
    /// policy (absent user, budget, a failure), not on request nor at its maximum age (nothing is
    /// due for it any more), its subject not erased.
    public var learnsLateResults: Bool {
        status == .abandoned && abandonReason?.kind != .requested && abandonReason?.kind != .cancelled
            && abandonReason?.kind != .maxAgeReached && subjectErasedAt == nil
    }

    /// Whether Unico may be asked for `number`'s result before the attempt is expired: the
    /// current attempt, its capture opened, neither a callback nor a webhook arrived (either may
    /// have been lost while the person finished); or an attempt that ``awaitsFinishProbe(_:)``.
    public func mayProbeResult(_ number: Int) -> Bool {
        if awaitsFinishProbe(number) { return true }
        guard status == .captureOpened, number == currentAttemptNumber, let attempt = attempt(number) else { return false }
        return attempt.processID != nil && attempt.captureOpenedAt != nil && attempt.callbackAt == nil
            && attempt.resultFetchedAt == nil
    }

    /// Whether attempt `number` ended in a `73302` after its capture was opened (the finish answer
    /// may have been lost while Unico finished the process) and Unico was not asked yet: the
    /// workers probe it once before its retry, also after a newer attempt replaced it.
    public func awaitsFinishProbe(_ number: Int) -> Bool {
        guard status != .completed, status != .abandoned || learnsLateResults, let attempt = attempt(number)
        else { return false }
        return attempt.processID != nil && attempt.captureOpenedAt != nil
            && attempt.callbackOutcome == .error(code: .authenticationFailed)
            && attempt.awaitingResultSince == nil && attempt.resultFetchedAt == nil && attempt.processState == nil
    }

    /// Attempts with a result to fetch, oldest first.
    public var attemptsAwaitingResult: [AttemptState] {
        attempts.filter { awaitsResult($0.number) }
    }
}

extension JourneyState {
    /// How long an attempt lives from when its Create Process was sent: a link journey's as long
    /// as Unico's link (the policy's `linkLifetime`, sent as `expiresIn`; the workers never
    /// re-notify the person before it ends), an SDK journey's the `webAppToken`'s five minutes.
    public var attemptLifetime: TimeInterval {
        isLinkJourney ? retryPolicy.linkLifetime : JourneyTiming.webAppTokenLifetime
    }

    /// When `attempt`'s `webAppToken` expires: its attempt's expiry for an SDK journey; for a link
    /// journey, whose attempt lives as long as the link, five minutes after its process was made.
    public func webAppTokenExpiry(of attempt: AttemptState) -> Date? {
        guard isLinkJourney else { return attempt.tokenExpiresAt }
        guard let created = attempt.processCreatedAt else { return attempt.tokenExpiresAt }
        let token = created.addingTimeInterval(JourneyTiming.webAppTokenLifetime)
        return attempt.tokenExpiresAt.map { min($0, token) } ?? token
    }

    /// When the timer may expire `attempt`: its token's expiry, plus the policy's `captureGrace`
    /// once its capture was opened.
    public func expiryDeadline(of attempt: AttemptState) -> Date? {
        guard let expiresAt = attempt.tokenExpiresAt else { return nil }
        return attempt.captureOpenedAt == nil ? expiresAt : expiresAt.addingTimeInterval(retryPolicy.captureGrace)
    }
}
