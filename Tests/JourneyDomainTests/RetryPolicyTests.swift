import Foundation
import JourneyDomain
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    let now = Fixture.t0

    @Test("defaults: 10 s, ×2, 300 s cap, 5 attempts, 20 % jitter, the catalog's non-retryable codes")
    func defaults() {
        let policy = RetryPolicy.standard
        #expect(policy.initialInterval == 10)
        #expect(policy.backoffCoefficient == 2)
        #expect(policy.maximumInterval == 300)
        #expect(policy.maximumAttempts == 5)
        #expect(policy.jitterFraction == 0.2)
        #expect(policy.nonRetryableCodes == [73203, 73006, 73303, 73304, 73701, 74001])
    }

    @Test("delay grows by the coefficient and stops at the maximum interval")
    func growth() {
        let policy = RetryPolicy.standard
        let delays = (1...8).map { policy.delay(forAttempt: $0, randomUnit: 0) }
        #expect(delays == [10, 20, 40, 80, 160, 300, 300, 300])
    }

    @Test("a custom coefficient and cap")
    func customGrowth() {
        let policy = RetryPolicy(initialInterval: 1, backoffCoefficient: 3, maximumInterval: 20, jitterFraction: 0)
        #expect((1...5).map { policy.delay(forAttempt: $0, randomUnit: 0.9) } == [1, 3, 9, 20, 20])
    }

    @Test("jitter removes at most jitterFraction of the delay", arguments: [0.0, 0.25, 0.5, 0.75, 0.999_999, 1.0])
    func jitterBounds(unit: Double) {
        let policy = RetryPolicy.standard
        for attempt in 1...7 {
            let base = policy.delay(forAttempt: attempt, randomUnit: 0)
            let jittered = policy.delay(forAttempt: attempt, randomUnit: unit)
            #expect(jittered <= base)
            #expect(jittered >= base * 0.8)
            #expect(abs(jittered - base * (1 - 0.2 * unit)) < 1e-9)
        }
    }

    @Test("random units outside 0...1 are clamped")
    func clampRandom() {
        let policy = RetryPolicy.standard
        #expect(policy.delay(forAttempt: 2, randomUnit: -3) == 20)
        #expect(policy.delay(forAttempt: 2, randomUnit: 7) == 16)
        #expect(policy.delay(forAttempt: 2, randomUnit: .nan) == 20)
    }

    @Test("huge attempt numbers stay at the cap")
    func noOverflow() {
        #expect(RetryPolicy.standard.delay(forAttempt: 100_000, randomUnit: 0) == 300)
    }

    @Test("a retryable failure retries at now + delay")
    func retries() {
        let decision = RetryPolicy.standard.nextRetry(after: .tokenExpired(), attempt: 3, now: now, randomUnit: 0.5)
        #expect(decision == .retry(at: now.addingTimeInterval(40 * 0.9)))
    }

    @Test("the last attempt gives up as exhausted")
    func exhausted() {
        let policy = RetryPolicy(maximumAttempts: 3)
        #expect(policy.nextRetry(after: .tokenExpired(), attempt: 2, now: now, randomUnit: 0) == .retry(at: now + 20))
        #expect(policy.nextRetry(after: .tokenExpired(), attempt: 3, now: now, randomUnit: 0) == .giveUp(.attemptsExhausted(3)))
    }

    @Test("non-retryable codes give up even on the first attempt", arguments: SDKErrorCatalog.standard.nonRetryableCodes)
    func nonRetryable(code: SDKErrorCode) {
        let decision = RetryPolicy.standard.nextRetry(after: .sdkError(code), attempt: 1, now: now, randomUnit: 0)
        #expect(decision == .giveUp(.nonRetryable(code)))
    }

    @Test("a deployment can add a code to the non-retryable set")
    func customNonRetryable() {
        var policy = RetryPolicy.standard
        #expect(policy.nextRetry(after: .sdkError(73302), attempt: 1, now: now, randomUnit: 0) == .retry(at: now + 10))
        policy.nonRetryableCodes.insert(73302)
        #expect(policy.nextRetry(after: .sdkError(73302), attempt: 1, now: now, randomUnit: 0) == .giveUp(.nonRetryable(73302)))
    }

    @Test("removing a code the catalog calls non-retryable does not make it retryable")
    func catalogStillRules() {
        let policy = RetryPolicy(nonRetryableCodes: [])
        #expect(
            policy.nextRetry(after: .sdkError(.tokenRejected), attempt: 1, now: now, randomUnit: 0)
                == .giveUp(.nonRetryable(.tokenRejected)))
    }

    @Test("a failure without a code that is not retryable gives up")
    func nonRetryableWithoutCode() {
        let failure = AttemptFailureReason.processCreationFailed(
            ProcessCreationFailure(httpStatus: 401, message: "bad credentials"))
        #expect(
            RetryPolicy.standard.nextRetry(after: failure, attempt: 1, now: now, randomUnit: 0) == .giveUp(.nonRetryable(nil)))
    }

    @Test("Retry-After longer than the backoff wins; shorter does not")
    func retryAfter() {
        let long = AttemptFailureReason.processCreationFailed(
            ProcessCreationFailure(httpStatus: 429, message: "slow down", retryAfter: 30))
        let short = AttemptFailureReason.processCreationFailed(
            ProcessCreationFailure(httpStatus: 429, message: "slow down", retryAfter: 2))
        #expect(RetryPolicy.standard.nextRetry(after: long, attempt: 1, now: now, randomUnit: 0) == .retry(at: now + 30))
        #expect(RetryPolicy.standard.nextRetry(after: short, attempt: 1, now: now, randomUnit: 0) == .retry(at: now + 10))
    }

    @Test("out-of-range settings are clamped")
    func clamping() {
        let policy = RetryPolicy(
            initialInterval: -5,
            backoffCoefficient: 0.5,
            maximumInterval: -1,
            maximumAttempts: 0,
            jitterFraction: 3
        )
        #expect(policy.initialInterval == 0)
        #expect(policy.backoffCoefficient == 1)
        #expect(policy.maximumInterval == 0)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.jitterFraction == 1)
        let capped = RetryPolicy(initialInterval: 50, maximumInterval: 10)
        #expect(capped.maximumInterval == 50)
    }

    @Test("the policy encodes with sorted codes and decodes to an equal value")
    func coding() throws {
        let data = try EventJSON.makeEncoder().encode(RetryPolicy.standard)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains("\"nonRetryableCodes\":[73006,73203,73303,73304,73701,74001]"))
        #expect(try EventJSON.makeDecoder().decode(RetryPolicy.self, from: data) == .standard)
    }
}
