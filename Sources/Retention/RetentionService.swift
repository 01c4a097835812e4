import Foundation
import Lifecycle
import Observability

/// Applies a ``Retention`` policy every `configuration.interval`, the first time at start, until
/// cancelled. A failed run (a database restart) is logged and tried again at the next interval.
///
/// Any number of processes may run it: every step is idempotent.
public struct RetentionService: Service {
    public let retention: Retention
    let clock: @Sendable () -> Date
    let logger: Logger

    /// `clock` gives the time each run applies the policy at.
    public init(retention: Retention, clock: @escaping @Sendable () -> Date, logger: Logger = Logger(label: "retention")) {
        self.retention = retention
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isCancelled {
            do {
                let outcome = try await retention.apply(now: clock())
                if outcome.total > 0 || outcome.subjectsSkipped > 0 {
                    logger.info("retention applied", metadata: [
                        "subjects_erased": String(outcome.subjectsErased.count), "journeys_marked": String(outcome.journeysMarked),
                        "subjects_skipped": String(outcome.subjectsSkipped),
                        "idempotency_answers_purged": String(outcome.idempotencyAnswersPurged),
                        "journeys_tokens_dropped": String(outcome.journeysWithTokensDropped),
                    ])
                }
            } catch where !Task.isCancelled {
                logger.warning("retention run failed", metadata: ["error": String(describing: type(of: error))])
            }
            try? await Task.sleep(for: retention.configuration.interval)
        }
    }
}
