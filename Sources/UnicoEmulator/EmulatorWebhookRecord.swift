/// What happened to one webhook notification, for tests and the demo.
public struct EmulatorWebhookRecord: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        /// Still being attempted.
        case pending
        /// A 2xx answer was received.
        case delivered
        /// The fault script dropped it; never sent.
        case dropped
        /// Every attempt failed.
        case gaveUp
    }

    public var notification: WebhookNotification
    /// True for the extra copy the fault script asked for.
    public var isDuplicate: Bool
    /// HTTP status per attempt, nil where the attempt failed in transport.
    public var attempts: [Int?]
    public var outcome: Outcome
}
