import Foundation

/// A company asked for a journey for a subject in one environment.
public struct JourneyStarted: JourneyEventPayload {
    public static let eventType = "JourneyStarted"
    public var journeyID: JourneyID
    /// Always 0: the journey exists before its first attempt.
    public var attempt: Int
    public var occurredAt: Date
    public var environment: Environment
    public var flow: Flow
    public var purpose: Purpose
    public var subject: SealedSubject
    /// The company's own optional reference; not sent to Unico.
    public var clientReference: String?
    /// The policy in force for this journey's whole life.
    public var retryPolicy: RetryPolicy

    public init(
        journeyID: JourneyID,
        attempt: Int = 0,
        occurredAt: Date,
        environment: Environment,
        flow: Flow,
        purpose: Purpose,
        subject: SealedSubject,
        clientReference: String? = nil,
        retryPolicy: RetryPolicy
    ) {
        self.journeyID = journeyID
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
        self.retryPolicy = retryPolicy
    }
}
