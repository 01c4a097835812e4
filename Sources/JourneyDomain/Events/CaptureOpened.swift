import Foundation

/// The app reported that it called `prepareAndOpenSelfieCamera`.
public struct CaptureOpened: JourneyEventPayload {
    public static let eventType = "CaptureOpened"
    public var attempt: Int
    public var occurredAt: Date
    /// True when the attempt had already been replaced by a newer one.
    public var superseded: Bool

    public init(attempt: Int, occurredAt: Date, superseded: Bool = false) {
        self.attempt = attempt
        self.occurredAt = occurredAt
        self.superseded = superseded
    }
}
