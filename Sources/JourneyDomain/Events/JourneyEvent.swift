import Foundation

/// Every fact a journey's stream can hold.
public enum JourneyEvent: Hashable, Sendable {
    case journeyStarted(JourneyStarted)
    case processCreationRequested(ProcessCreationRequested)
    case processCreated(ProcessCreated)
    case processCreationFailed(ProcessCreationFailed)
    case tokenIssued(TokenIssued)
    case captureOpened(CaptureOpened)
    case callbackReceived(CallbackReceived)
    case webhookReceived(WebhookReceived)
    case resultPending(ResultPending)
    case resultFetched(ResultFetched)
    case tokenExpired(TokenExpired)
    case attemptFailed(AttemptFailed)
    case journeyCompleted(JourneyCompleted)
    case journeyAbandoned(JourneyAbandoned)
    case retryAllowed(RetryAllowed)
    case captureClosedByUser(CaptureClosedByUser)
    case captureSessionTimedOut(CaptureSessionTimedOut)
    case linkIssued(LinkIssued)
    case subjectErased(SubjectErased)
    case personalDataDisclosed(PersonalDataDisclosed)
    case journeyCancelled(JourneyCancelled)
    case attemptReplaced(AttemptReplaced)
    case faceInferenceTimedOut(FaceInferenceTimedOut)

    /// The payload struct inside the case.
    public var payload: any JourneyEventPayload {
        switch self {
        case .journeyStarted(let event): event
        case .processCreationRequested(let event): event
        case .processCreated(let event): event
        case .processCreationFailed(let event): event
        case .tokenIssued(let event): event
        case .captureOpened(let event): event
        case .callbackReceived(let event): event
        case .webhookReceived(let event): event
        case .resultPending(let event): event
        case .resultFetched(let event): event
        case .tokenExpired(let event): event
        case .attemptFailed(let event): event
        case .journeyCompleted(let event): event
        case .journeyAbandoned(let event): event
        case .retryAllowed(let event): event
        case .captureClosedByUser(let event): event
        case .captureSessionTimedOut(let event): event
        case .linkIssued(let event): event
        case .subjectErased(let event): event
        case .personalDataDisclosed(let event): event
        case .journeyCancelled(let event): event
        case .attemptReplaced(let event): event
        case .faceInferenceTimedOut(let event): event
        }
    }

    /// Stable type name stored beside the JSON data.
    public var eventType: String { type(of: payload).eventType }

    /// Attempt the event belongs to (0 for `JourneyStarted`).
    public var attempt: Int { payload.attempt }

    public var occurredAt: Date { payload.occurredAt }

    /// Every event type string, in journey order (types added later at the end).
    public static let allEventTypes: [String] = [
        JourneyStarted.eventType,
        ProcessCreationRequested.eventType,
        ProcessCreated.eventType,
        ProcessCreationFailed.eventType,
        TokenIssued.eventType,
        CaptureOpened.eventType,
        CallbackReceived.eventType,
        WebhookReceived.eventType,
        ResultPending.eventType,
        ResultFetched.eventType,
        TokenExpired.eventType,
        AttemptFailed.eventType,
        JourneyCompleted.eventType,
        JourneyAbandoned.eventType,
        RetryAllowed.eventType,
        CaptureClosedByUser.eventType,
        CaptureSessionTimedOut.eventType,
        LinkIssued.eventType,
        SubjectErased.eventType,
        PersonalDataDisclosed.eventType,
        JourneyCancelled.eventType,
        AttemptReplaced.eventType,
        FaceInferenceTimedOut.eventType,
    ]
}
