import Foundation
import Lifecycle
import Observability

/// Applies a ``Retention`` policy every `configuration.interval`, the first time at start, until
/// cancelled. A failed run (a database restart) is logged and tried again after
/// `retryAfterFailure` (at most the interval), not an interval later.
///
/// Any number of processes may run it: every step is idempotent.
public struct RetentionService: Service {
    public let retention: Retention
    let clock: @Sendable () -> Date
    let logger: Logger
    let retryAfterFailure: Duration

    /// `clock` gives the time each run applies the policy at.
    public init(
        retention: Retention, clock: @escaping @Sendable () -> Date, logger: Logger = Logger(label: "retention"),
        retryAfterFailure: Duration = .seconds(30)
    ) {
        self.retention = retention
        self.clock = clock
        self.logger = logger
        self.retryAfterFailure = retryAfterFailure
    }

    public func run() async throws {
        while !Task.isCancelled {
            var wait = retention.configuration.interval
            do {
                let outcome = try await retention.apply(now: clock())
                if outcome.total > 0 || outcome.subjectsSkipped > 0 {
                    logger.info(
                        "retention applied",
                        metadata: [
                            "subjects_erased": String(outcome.subjectsErased.count),
                            "journeys_marked": String(outcome.journeysMarked),
                            "subjects_skipped": String(outcome.subjectsSkipped),
                            "idempotency_answers_purged": String(outcome.idempotencyAnswersPurged),
                            "journeys_tokens_dropped": String(outcome.journeysWithTokensDropped),
                        ])
                }
            } catch  where !Task.isCancelled {
                logger.warning("retention run failed", metadata: ["error": String(describing: type(of: error))])
                wait = min(wait, retryAfterFailure)
            }
            try? await Task.sleep(for: wait)
        }
    }
}
