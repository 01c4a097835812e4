import Foundation

/// What every journey event struct provides: a stable type name, its attempt and its time.
public protocol JourneyEventPayload: Codable, Hashable, Sendable {
    /// Stable name stored with the event; never renamed once released.
    static var eventType: String { get }
    /// Attempt the event belongs to; 0 for journey-level events before the first attempt.
    var attempt: Int { get }
    /// When the orchestrator decided it. Event initializers round every date to the microsecond,
    /// so events survive their JSON form unchanged.
    var occurredAt: Date { get }
}
