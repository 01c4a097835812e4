import Foundation
import JourneyDomain
import Testing
import Workers

@Suite struct RetryArithmeticTests {
    let start = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func delaysGrowByTheCoefficientUpToTheCapAndJitterOnlyShortens() {
        let policy = RetryPolicy(
            initialInterval: 10, backoffCoefficient: 2, maximumInterval: 60, maximumAttempts: 6,
            jitterFraction: 0.2)
        #expect((1...6).map { policy.delay(forAttempt: $0, randomUnit: 0) } == [10, 20, 40, 60, 60, 60])
        #expect(policy.delay(forAttempt: 2, randomUnit: 0.5) == 18)
        #expect(policy.delay(forAttempt: 2, randomUnit: 0.999_999) > 16)
        guard case .retry(let at) = policy.nextRetry(after: .tokenExpired(), attempt: 3, now: start, randomUnit: 0) else {
            Issue.record("expected a retry")
            return
        }
        #expect(at == start.addingTimeInterval(40))
    }

    @Test func retryAfterIsAFloorAndTheBudgetAndCatalogStopRetries() {
        let policy = RetryPolicy(initialInterval: 1, maximumAttempts: 3, jitterFraction: 0)
        let limited = AttemptFailureReason.processCreationFailed(
            ProcessCreationFailure(httpStatus: 429, message: "Create Process failed: rate_limited", retryAfter: 30))
        #expect(
            policy.nextRetry(after: limited, attempt: 1, now: start, randomUnit: 0) == .retry(at: start.addingTimeInterval(30)))
        #expect(policy.nextRetry(after: .tokenExpired(), attempt: 3, now: start, randomUnit: 0) == .giveUp(.attemptsExhausted(3)))
        #expect(
            policy.nextRetry(after: .sdkError(73304), attempt: 1, now: start, randomUnit: 0)
                == .giveUp(.nonRetryable(73304)))
        let refused = AttemptFailureReason.processCreationFailed(ProcessCreationFailure(httpStatus: 400, message: "refused"))
        #expect(policy.nextRetry(after: refused, attempt: 1, now: start, randomUnit: 0) == .giveUp(.nonRetryable(nil)))
    }

    @Test func policyComesFromTheEnvironmentAndBadValuesNameTheVariable() throws {
        let policy = try RetryPolicy.fromEnvironment([
            "JOURNEYS_RETRY_INITIAL_INTERVAL": "2", "JOURNEYS_RETRY_BACKOFF_COEFFICIENT": "3",
            "JOURNEYS_RETRY_MAXIMUM_INTERVAL": "50", "JOURNEYS_RETRY_MAXIMUM_ATTEMPTS": "4",
            "JOURNEYS_RETRY_JITTER_FRACTION": "0", "JOURNEYS_RETRY_NON_RETRYABLE_CODES": "73304, 73203",
            "JOURNEYS_CAPTURE_GRACE": "120", "JOURNEYS_RETRY_ABANDON_AFTER": "900",
        ])
        #expect(
            policy
                == RetryPolicy(
                    initialInterval: 2, backoffCoefficient: 3, maximumInterval: 50, maximumAttempts: 4,
                    jitterFraction: 0, nonRetryableCodes: [73304, 73203], captureGrace: 120,
                    abandonAfter: 900))
        #expect(try RetryPolicy.fromEnvironment([:]) == .standard)
        for (name, value) in [
            ("JOURNEYS_RETRY_MAXIMUM_ATTEMPTS", "2.5"), ("JOURNEYS_RETRY_JITTER_FRACTION", "2"),
            ("JOURNEYS_RETRY_INITIAL_INTERVAL", "soon"), ("JOURNEYS_RETRY_NON_RETRYABLE_CODES", "x"),
            ("JOURNEYS_CAPTURE_GRACE", "-1"), ("JOURNEYS_RETRY_ABANDON_AFTER", "later"),
        ] {
            let error = try #require(throws: WorkerError.self) { try RetryPolicy.fromEnvironment([name: value]) }
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains(name))
        }
    }

    @Test func itemsThatCannotFinishBackOffDoublingToACap() {
        let configuration = DuePerformer.Configuration(initialBackoff: 5, maximumBackoff: 60)
        #expect((1...6).map { configuration.backoff(afterTries: $0) } == [5, 10, 20, 40, 60, 60])
    }

    @Test func workerConfigurationRefusesUnusableSettings() {
        #expect(throws: WorkerError.self) { try WorkerService.Configuration(batchSize: 0).validate() }
        #expect(throws: WorkerError.self) { try WorkerService.Configuration(leaseDuration: -1).validate() }
        #expect(throws: Never.self) { try WorkerService.Configuration().validate() }
    }
}
