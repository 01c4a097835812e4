import Foundation

/// What every journey event struct provides: a stable type name, its attempt and its time.
public protocol JourneyEventPayload: Codable, Hashable, Sendable {
    /// Stable name stored with the event; never renamed once released.
    static var eventType: String { get }
    /// Attempt the event belongs to; 0 for journey-level events before the first attempt.
    var attempt: Int { get }
    /// When the orchestrator decided it, truncated to whole microseconds.
    var occurredAt: Date { get }
}
