/// A start request that passed validation; its subject still needs sealing.
public struct ValidatedStartJourney: Hashable, Sendable {
    public var environment: Environment
    public var flow: Flow
    public var purpose: Purpose
    public var subject: ValidatedSubject
    public var clientReference: String?

    public init(
        environment: Environment,
        flow: Flow,
        purpose: Purpose,
        subject: ValidatedSubject,
        clientReference: String? = nil
    ) {
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
    }

    /// The `.start` command input, once the subject is sealed.
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
            retryPolicy: retryPolicy,
            tenant: tenant,
            processAtStart: processAtStart
        )
    }
}
