import Foundation

/// What callers ask of a journey; ``Journey/decide(_:state:now:randomUnit:)`` answers with events.
public enum JourneyCommand: Hashable, Sendable {
    /// Start the journey and record the intent of its first process.
    case start(StartJourney)
    /// Create Process answered for the attempt.
    case recordProcessCreated(ProcessCreation)
    /// Create Process failed for the attempt.
    case recordProcessCreationFailed(attempt: Int, failure: ProcessCreationFailure)
    /// The app asks for a `webAppToken` to open a capture: the current attempt's while its capture
    /// is not opened yet and 60 s of it remain, else a new attempt (a fresh process).
    case issueToken
    /// The app asks for the current attempt's `link` (it cannot use the SDK Lite).
    case issueLink
    /// The app called `prepareAndOpenSelfieCamera` with the attempt's token.
    case recordCaptureOpened(attempt: Int)
    /// The app reports `onSuccess` or `onErrorSelfie` for the attempt.
    case recordCallback(attempt: Int, outcome: CallbackOutcome)
    /// The app reports `onUserClosedCameraManually` for the attempt.
    case recordCaptureClosedByUser(attempt: Int)
    /// The app reports `onSystemClosedCameraTimeoutSession` for the attempt.
    case recordCaptureSessionTimedOut(attempt: Int)
    /// The app reports `onSystemChangedTypeCameraTimeoutFaceInference` for the attempt.
    case recordFaceInferenceTimedOut(attempt: Int)
    /// Unico's webhook for one of the journey's processes.
    case recordWebhook(WebhookNotice)
    /// Get Process answered for the attempt.
    case recordResult(attempt: Int, snapshot: ProcessSnapshot)
    /// A timer found the attempt's token past its lifetime.
    case expireToken(attempt: Int)
    /// A worker starts the attempt after `afterAttempt` with a fresh process (link journeys) or
    /// allows it (SDK journeys).
    case retry(afterAttempt: Int)
    /// A worker abandons an SDK journey whose allowed retry was never asked for.
    case abandonAbsent(afterAttempt: Int)
    /// A worker abandons a journey whose deadline came before it completed.
    case abandonAtDeadline
    /// A worker abandons a journey still open at its maximum age (the policy's `maximumAge`).
    case abandonAtMaxAge
    /// Give up on the journey.
    case abandon(reason: AbandonReason)
    /// The company or an operator cancels the journey: it ends, abandoned as `cancelled`.
    case cancel(JourneyCancellation)
    /// The subject's data key was destroyed; mark the journey (abandoning it if still active).
    case recordSubjectErased(SubjectErasure)
    /// Someone opened the journey's sealed personal data or Human Token.
    case recordDisclosure(PersonalDataDisclosure)

    /// Short verb phrase used in error messages.
    public var action: String {
        switch self {
        case .start: "start the journey"
        case .recordProcessCreated: "record a created process"
        case .recordProcessCreationFailed: "record a failed process creation"
        case .issueToken: "issue a token"
        case .issueLink: "issue the link"
        case .recordCaptureClosedByUser: "record capture closed by the user"
        case .recordCaptureSessionTimedOut: "record capture session timed out"
        case .recordFaceInferenceTimedOut: "record face inference timed out"
        case .abandonAbsent: "abandon the journey for an absent user"
        case .recordCaptureOpened: "record capture opened"
        case .recordCallback: "record a callback"
        case .recordWebhook: "record a webhook"
        case .recordResult: "record a process result"
        case .expireToken: "expire the token"
        case .retry: "retry with a fresh process"
        case .abandonAtDeadline: "abandon the journey at its deadline"
        case .abandonAtMaxAge: "abandon the journey at its maximum age"
        case .abandon: "abandon the journey"
        case .cancel: "cancel the journey"
        case .recordSubjectErased: "record the subject's erasure"
        case .recordDisclosure: "record a disclosure of personal data"
        }
    }
}
