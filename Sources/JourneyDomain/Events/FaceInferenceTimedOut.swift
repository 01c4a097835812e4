import Foundation

/// The app reported the SDK's `onSystemChangedTypeCameraTimeoutFaceInference`: face inference
/// took too long and the camera switched to manual capture. The capture goes on; recorded once
/// per attempt, for the funnel and support.
public struct FaceInferenceTimedOut: JourneyEventPayload {
    public static let eventType = "FaceInferenceTimedOut"
    public let attempt: Int
    public let occurredAt: Date

    public init(attempt: Int, occurredAt: Date) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
    }
}
