import Foundation

/// The app reported the SDK's `onUserClosedCameraManually`: the user closed the capture.
public struct CaptureClosedByUser: JourneyEventPayload {
    public static let eventType = "CaptureClosedByUser"
    public let attempt: Int
    public let occurredAt: Date
    /// True when the attempt had already been replaced by a newer one.
    public let superseded: Bool

    public init(attempt: Int, occurredAt: Date, superseded: Bool = false) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.superseded = superseded
    }
}
