import Foundation

/// Unico's webhook for one of the journey's processes arrived; a hint to be confirmed by Get Process.
public struct WebhookReceived: JourneyEventPayload {
    public static let eventType = "WebhookReceived"
    public let attempt: Int
    public let occurredAt: Date
    public let processID: ProcessID
    /// Payload `state`, as sent.
    public let state: String
    /// Payload `result` (`ok`, `expired`, `invalid_identity`), as sent.
    public let result: String?
    /// Payload `lastEvent`, sent with expired results.
    public let lastEvent: String?
    /// True when the process belongs to a replaced attempt; recorded for audit, it moves nothing.
    public let superseded: Bool

    public init(
        attempt: Int,
        occurredAt: Date,
        processID: ProcessID,
        state: String,
        result: String? = nil,
        lastEvent: String? = nil,
        superseded: Bool = false
    ) {
        self.attempt = attempt
        self.occurredAt = occurredAt.roundedToMicroseconds
        self.processID = processID
        self.state = state
        self.result = result
        self.lastEvent = lastEvent
        self.superseded = superseded
    }
}
