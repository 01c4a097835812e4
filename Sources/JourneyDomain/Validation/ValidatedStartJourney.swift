import Foundation

/// A start request that passed validation; its subject still needs sealing.
public struct ValidatedStartJourney: Hashable, Sendable {
    public var environment: Environment
    public var flow: Flow
    public var purpose: Purpose
    public var subject: ValidatedSubject
    public var clientReference: String?
    /// The journey's own attempt budget, within the deployment's (``JourneyLimits``); nil: the
    /// deployment's retry policy unchanged.
    public var maximumAttempts: Int?
    /// The journey's deadline (``JourneyLimits``); nil: none.
    public var deadline: Date?

    public init(
        environment: Environment,
        flow: Flow,
        purpose: Purpose,
        subject: ValidatedSubject,
        clientReference: String? = nil,
        maximumAttempts: Int? = nil,
        deadline: Date? = nil
    ) {
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
        self.maximumAttempts = maximumAttempts
        self.deadline = deadline
    }

    /// The `.start` command input, once the subject is sealed: `retryPolicy` (the deployment's)
    /// with `maximumAttempts` lowered to the journey's budget, never raised.
    public func command(
        journeyID: JourneyID,
        subject sealed: SealedSubject,
        retryPolicy: RetryPolicy = .standard,
        tenant: String? = nil,
        processAtStart: Bool = true
    ) -> StartJourney {
        StartJourney(
            journeyID: journeyID,
            environment: environment,
            flow: flow,
            purpose: purpose,
            subject: sealed,
            clientReference: clientReference,
            retryPolicy: JourneyLimits.policy(retryPolicy, maximumAttempts: maximumAttempts),
            tenant: tenant,
            processAtStart: processAtStart,
            deadline: deadline
        )
    }
}
