import Foundation

/// A company asked for a journey for a subject in one environment.
public struct JourneyStarted: JourneyEventPayload {
    public static let eventType = "JourneyStarted"
    public let journeyID: JourneyID
    /// Always 0: the journey exists before its first attempt.
    public let attempt: Int
    public let occurredAt: Date
    public let environment: Environment
    public let flow: Flow
    public let purpose: Purpose
    public let subject: SealedSubject
    /// The company's own optional reference; not sent to Unico.
    public let clientReference: String?
    /// The policy in force for this journey's whole life.
    public let retryPolicy: RetryPolicy
    /// The tenant whose API key started the journey; absent in events written before tenants,
    /// which belong to ``defaultTenant``.
    public let tenant: String?
    /// When the journey ends if it has not completed: at this instant its due work abandons it
    /// (`deadlineReached`); no process is made and no token handed out from then on. Absent when
    /// the start set none (and in events written before deadlines).
    public let deadline: Date?

    /// The tenant of journeys whose start names none.
    public static let defaultTenant = "default"

    public init(
        journeyID: JourneyID,
        attempt: Int = 0,
        occurredAt: Date,
        environment: Environment,
        flow: Flow,
        purpose: Purpose,
        subject: SealedSubject,
        clientReference: String? = nil,
        retryPolicy: RetryPolicy,
        tenant: String? = nil,
        deadline: Date? = nil
    ) {
        self.journeyID = journeyID
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
        self.retryPolicy = retryPolicy
        self.tenant = tenant
        self.deadline = deadline?.roundedToMicroseconds
    }
}
