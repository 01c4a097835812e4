import Foundation

/// Input of `.start`: validated values with personal data already sealed.
public struct StartJourney: Hashable, Sendable {
    public var journeyID: JourneyID
    public var environment: Environment
    public var flow: Flow
    public var purpose: Purpose
    public var subject: SealedSubject
    /// The company's own optional reference.
    public var clientReference: String?
    /// The deployment's policy, frozen into the journey.
    public var retryPolicy: RetryPolicy
    /// The tenant starting it; nil records none (the default tenant).
    public var tenant: String?
    /// Whether attempt 1's Create Process is asked for with the start (default true, as the
    /// command always did). False: the process is made when the app asks for a token, right
    /// before the capture opens (seed: "Create it right before opening the capture"); the API
    /// starts SDK journeys so unless asked otherwise. Link journeys always get theirs at start:
    /// Unico notifies the person.
    public var processAtStart: Bool
    /// When the journey is abandoned (`deadlineReached`) if it has not completed; nil: none
    /// beyond its natural windows. The caller checks it (``JourneyLimits``).
    public var deadline: Date?

    public init(
        journeyID: JourneyID,
        environment: Environment,
        flow: Flow,
        purpose: Purpose,
        subject: SealedSubject,
        clientReference: String? = nil,
        retryPolicy: RetryPolicy = .standard,
        tenant: String? = nil,
        processAtStart: Bool = true,
        deadline: Date? = nil
    ) {
        self.journeyID = journeyID
        self.environment = environment
        self.flow = flow
        self.purpose = purpose
        self.subject = subject
        self.clientReference = clientReference
        self.retryPolicy = retryPolicy
        self.tenant = tenant
        self.processAtStart = processAtStart
        self.deadline = deadline
    }

    /// Whether attempt 1's process is made with the start: when asked (`processAtStart`) and
    /// for every link journey (a subject with notification channels).
    public static func makesProcess(requested processAtStart: Bool, notificationChannels: [NotificationChannel]) -> Bool {
        processAtStart || !notificationChannels.isEmpty
    }
}
