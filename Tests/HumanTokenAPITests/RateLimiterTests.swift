import Foundation
import HumanTokenAPI
import JourneyTesting
import Testing

/// The limiter's shell: waiting, cancellation and pauses on the real clock, in fractions of a second.
@Suite("Rate limiter")
struct RateLimiterTests {
    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let limiter = HumanTokenRateLimiter(requestsPerSecond: 1)
        try await limiter.acquire(.live)
        // Held back for an hour, so a busy (parallel) run cannot let the waiter through before
        // the test sees it waiting.
        limiter.pause(for: 3600)
        let waiter = Task { try await limiter.acquire(.background) }
        try await waitUntil("the call waits") { limiter.waiting > 0 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(limiter.waiting == 0)
    }

    @Test func aPauseHoldsEveryoneBack() async throws {
        let limiter = HumanTokenRateLimiter(requestsPerSecond: 50)
        limiter.pause(for: 0.3)
        let start = ContinuousClock.now
        try await limiter.acquire(.live)
        #expect(ContinuousClock.now - start >= .milliseconds(280))
    }

    @Test func aBurstUpToTheRateGoesAtOnce() async throws {
        let limiter = HumanTokenRateLimiter(requestsPerSecond: 5)
        let start = ContinuousClock.now
        for _ in 0..<5 { try await limiter.acquire(.background) }
        #expect(ContinuousClock.now - start < .milliseconds(190))
        try await limiter.acquire(.background)
        #expect(ContinuousClock.now - start >= .milliseconds(195))
    }
}
