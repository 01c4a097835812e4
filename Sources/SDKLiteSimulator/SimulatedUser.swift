/// What the person holding the simulated phone does once the capture is open.
///
/// Outcomes that end the journey reach the emulator's finish endpoint and then `onSuccess(_:)`,
/// whatever the result: `onSuccess` means the journey ended, not that the person was approved.
public enum SimulatedUser: String, Sendable, Hashable, CaseIterable {
    /// Completes the capture and is approved: process OK with a Human Token, then `onSuccess`.
    case approve
    /// Completes the capture and is not recognised: process INVALID_IDENTITY, then `onSuccess`.
    case beRejected
    /// Keeps the face out of frame until the camera switches to manual, then is approved:
    /// `onSystemChangedTypeCameraTimeoutFaceInference`, process OK, `onSuccess`.
    case approveAfterFaceInferenceTimeout
    /// Dawdles in the web journey until the token runs out: process EXPIRED, then `onSuccess`.
    case expireToken
    /// Hits a failure inside Unico's journey: process ERROR, then `onSuccess`.
    case hitJourneyError
    /// Closes the capture: `onUserClosedCameraManually`; the process stays open.
    case closeCamera
    /// Leaves the phone until the capture session times out: `onSystemClosedCameraTimeoutSession`;
    /// the process stays open.
    case letSessionTimeOut

    /// The emulator's `outcome` for users who end the journey; nil for those who leave it open.
    var finishOutcome: String? {
        switch self {
        case .approve, .approveAfterFaceInferenceTimeout: "approved"
        case .beRejected: "rejected"
        case .expireToken: "expired"
        case .hitJourneyError: "error"
        case .closeCamera, .letSessionTimeOut: nil
        }
    }
}
