import JourneyDomain

/// The event types a company can subscribe to, and the one place that maps journey events to them.
///
/// | type | sent for |
/// | --- | --- |
/// | `journey.started` | `JourneyStarted` |
/// | `attempt.capture_opened` | `CaptureOpened` (also for a superseded attempt, `superseded: true`) |
/// | `attempt.failed` | `AttemptFailed` whose reason is an SDK error, a failed Create Process, a Unico-side failure (`processFailed`) or a drop-off the app reported (`closedByUser`, `sessionTimedOut`) |
/// | `attempt.expired` | `AttemptFailed` whose reason is an expired token or an expired Unico process |
/// | `attempt.replaced` | `AttemptReplaced`: a new attempt replaced it (a new capture, or a token about to expire) |
/// | `journey.completed` | `JourneyCompleted` |
/// | `journey.abandoned` | `JourneyAbandoned` |
///
/// Every attempt that ends without a result gives exactly one of `attempt.failed`,
/// `attempt.expired` and `attempt.replaced` (the `TokenExpired` event before an expiry's `AttemptFailed` is not sent
/// on its own). Other events (process created, token issued, callbacks, results) are not sent.
public struct JourneyWebhookEventType: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let journeyStarted = Self(rawValue: "journey.started")
    public static let captureOpened = Self(rawValue: "attempt.capture_opened")
    public static let attemptFailed = Self(rawValue: "attempt.failed")
    public static let attemptExpired = Self(rawValue: "attempt.expired")
    public static let attemptReplaced = Self(rawValue: "attempt.replaced")
    public static let journeyCompleted = Self(rawValue: "journey.completed")
    public static let journeyAbandoned = Self(rawValue: "journey.abandoned")

    /// Every type, in a journey's order.
    public static let all: [Self] = [
        .journeyStarted, .captureOpened, .attemptFailed, .attemptExpired, .attemptReplaced, .journeyCompleted,
        .journeyAbandoned,
    ]

    /// The type `event` is sent as, or nil when it is not sent.
    public static func of(_ event: JourneyEvent) -> Self? {
        switch event {
        case .journeyStarted: .journeyStarted
        case .captureOpened: .captureOpened
        case .attemptFailed(let failed):
            switch failed.reason.kind {
            case .tokenExpired, .processExpired: .attemptExpired
            case .sdkError, .processCreationFailed, .processFailed, .closedByUser, .sessionTimedOut: .attemptFailed
            }
        case .attemptReplaced: .attemptReplaced
        case .journeyCompleted: .journeyCompleted
        case .journeyAbandoned: .journeyAbandoned
        default: nil
        }
    }

    /// The journey event types (`JourneyStarted`, ...) that ``of(_:)`` may send: what the follower reads.
    static let sourceEventTypes: Set<String> = [
        JourneyStarted.eventType, CaptureOpened.eventType, AttemptFailed.eventType, AttemptReplaced.eventType,
        JourneyCompleted.eventType, JourneyAbandoned.eventType,
    ]

    /// Parses a comma-separated subscription (`journey.completed,attempt.failed`); `all` (or
    /// `*`) means every type, now and later, and gives nil. Duplicates collapse.
    ///
    /// Throws `invalid_argument` naming the first unknown type and listing the known ones.
    public static func parseList(_ text: String) throws(WebhookError) -> [Self]? {
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !entries.isEmpty else {
            throw WebhookError(.invalidArgument, "events: give at least one event type, or 'all'")
        }
        if entries.count == 1, entries[0] == "all" || entries[0] == "*" { return nil }
        var types: [Self] = []
        for entry in entries {
            let type = Self(rawValue: entry.lowercased())
            guard all.contains(type) else {
                throw WebhookError(
                    .invalidArgument,
                    "events: unknown event type '\(entry)' (known: "
                        + all.map(\.rawValue).joined(separator: ", ") + ", or all)")
            }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }
}
