import Foundation

/// What `journeys load` saw: every attempt of every Idempotency-Key, as JSON for the fault suite's checks.
///
/// Times are seconds since 1970 (wall clock), so that a script can set them beside the times of
/// the faults it caused. Status 0 stands for an attempt that got no HTTP answer (refused,
/// reset, timed out).
struct LoadReport: Sendable, Codable, Equatable {
    /// One request of a key.
    struct Attempt: Sendable, Codable, Equatable {
        /// When it was sent.
        var at: Double
        /// Seconds until the answer (or the transport failure).
        var seconds: Double
        /// The HTTP status, 0 without an answer.
        var status: Int
        /// The problem's `code`, if the answer was a problem.
        var code: String?
    }

    /// One Idempotency-Key: one journey start retried until a final answer.
    struct Key: Sendable, Codable, Equatable {
        var key: String
        /// The client (0-based) that sent it.
        var client: Int
        /// The `clientReference` sent in the body, which the journey's `JourneyStarted` event records.
        var clientReference: String
        var firstAttemptAt: Double
        /// When the final answer came; nil when the key never got one before the drain ended.
        var finalAt: Double?
        var finalStatus: Int?
        /// The `journeyId` of the final answer.
        var journeyId: String?
        /// Every distinct `journeyId` any answer for this key carried (more than one is a bug).
        var journeyIds: [String]
        var attempts: [Attempt]
    }

    var startedAt: Double
    var endedAt: Double
    var clients: Int
    /// Answers per status (`"0"` for no answer), every attempt counted.
    var statusCounts: [String: Int]
    var keys: [Key]

    /// Keys that got no final answer.
    var unresolved: [Key] { keys.filter { $0.finalAt == nil } }

    /// Keys whose final answer was 2xx.
    var acknowledged: [Key] { keys.filter { ($0.finalStatus ?? 0) / 100 == 2 } }
}
