import JourneyDomain
import Postgres
import Privacy

/// What creating an attempt's Unico process needs to know about the journey and its attempt.
public struct AttemptTarget: Sendable {
    public var journeyID: JourneyID
    public var attempt: Int
    public var unicoClientReference: String
    public var environment: Environment
    public var flow: Flow
    public var purpose: Purpose
    public var subject: ValidatedSubject
    public var reference: SubjectReference
    /// The journey's tenant, whose own Unico settings (if any) create its processes; nil: the default tenant.
    public var tenant: String?
    /// The process's `expiresIn` in seconds: a link journey's `linkLifetime` (its link lives as
    /// long as the process); nil leaves Unico's default, enough for an SDK journey's capture.
    public var processLifetime: Int?

    public init(
        journeyID: JourneyID, attempt: Int, unicoClientReference: String, environment: Environment,
        flow: Flow, purpose: Purpose, subject: ValidatedSubject, reference: SubjectReference,
        tenant: String? = nil, processLifetime: Int? = nil
    ) {
        self.journeyID = journeyID
        self.attempt = attempt
        self.unicoClientReference = unicoClientReference
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.reference = reference
        self.tenant = tenant
        self.processLifetime = processLifetime
    }

    /// The `expiresIn` a process of `state`'s journey asks for; nil for SDK journeys. A link
    /// never outlives the journey's deadline nor its maximum age (counted from the attempt's
    /// request; at least 60 s).
    public static func processLifetime(of state: JourneyState) -> Int? {
        guard state.isLinkJourney else { return nil }
        var lifetime = state.retryPolicy.linkLifetime
        if let requested = state.currentAttempt?.requestedAt {
            for end in [state.deadline, state.maxAgeAt].compactMap({ $0 }) {
                lifetime = min(lifetime, max(60, end.timeIntervalSince(requested).rounded(.up)))
            }
        }
        return Int(lifetime)
    }

    /// The target of the journey's current attempt, its subject opened with `vault` on `connection`;
    /// nil before the journey started.
    public static func current(
        _ state: JourneyState, vault: SubjectVault,
        on connection: PostgresConnection
    ) throws -> AttemptTarget? {
        guard let id = state.journeyID, let attempt = state.currentAttempt, let subject = state.subject,
            let environment = state.environment, let flow = state.flow, let purpose = state.purpose
        else { return nil }
        return AttemptTarget(
            journeyID: id, attempt: attempt.number, unicoClientReference: attempt.unicoClientReference,
            environment: environment, flow: flow, purpose: purpose,
            subject: try vault.open(subject, on: connection), reference: subject.reference,
            tenant: state.tenant, processLifetime: processLifetime(of: state))
    }
}
