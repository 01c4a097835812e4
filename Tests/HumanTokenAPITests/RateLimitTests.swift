import Foundation
import HumanTokenAPI
import JourneyTesting
import Testing

/// The tenant's rate limit end to end: the emulator's 429s and the client's own pacing.
@Suite("Rate limiting against the emulator")
struct RateLimitTests {
    @Test func theEmulatorsLimitAnswers429WithRetryAfter() async throws {
        try await withEmulator(rateLimit: 2, clock: nil) { unico in
            // The client allows far more than the emulator, so the emulator has to refuse; live
            // calls that may not wait get its 429 at once.
            var configuration = unico.configuration(rateLimit: 100)
            configuration.liveRateWait = 0
            let client = try unico.client(configuration)
            let outcomes = await withTaskGroup(of: HumanTokenAPIError?.self) { group in
                for _ in 0..<6 {
                    group.addTask { await apiErrorOrNil { try await client.createProcess(Samples.minimalRequest()) } }
                }
                return await group.reduce(into: [HumanTokenAPIError?]()) { $0.append($1) }
            }
            let limited = outcomes.compactMap { $0 }
            #expect(outcomes.count - limited.count == 2)
            #expect(limited.count == 4)
            for error in limited {
                #expect(error.code == .rateLimited)
                #expect((error.retryAfter ?? 0) >= 1)
            }
        }
    }

    @Test func liveCallsWaitOutUnicos429WithinTheirWait() async throws {
        try await withEmulator(rateLimit: 2, clock: nil) { unico in
            let client = try unico.client(unico.configuration(rateLimit: 100))  // live wait: 2 s by default
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: HumanTokenAPIError?.self) { group in
                for _ in 0..<4 {
                    group.addTask { await apiErrorOrNil { try await client.createProcess(Samples.minimalRequest()) } }
                }
                return await group.reduce(into: [HumanTokenAPIError?]()) { $0.append($1) }
            }
            // Two had the burst; the other two got 429 Retry-After 1, waited and were resent.
            #expect(outcomes.compactMap { $0 }.isEmpty, "\(outcomes)")
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    @Test func aLiveCallGivesUpWhenNoTokenComesWithinItsWait() async throws {
        try await withEmulator(rateLimit: 0) { unico in
            var configuration = unico.configuration(rateLimit: 1)
            configuration.liveRateWait = 0.5
            let client = try unico.client(configuration)
            _ = try await client.createProcess(Samples.minimalRequest())
            client.rateLimiter.pause(for: 5)
            let started = ContinuousClock.now
            let error = await apiError { try await client.createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .rateLimited)
            #expect((error?.retryAfter ?? 0) >= 1)
            #expect(ContinuousClock.now - started < .milliseconds(400))  // refused at once, not after 5 s
        }
    }

    @Test func theClientsLimiterKeepsUnderTheEmulatorsLimit() async throws {
        try await withEmulator(rateLimit: 4, clock: nil) { unico in
            // A little below the emulator's rate, so network jitter cannot empty its bucket first.
            let client = try unico.client(unico.configuration(rateLimit: 3))
            let created = try await client.createProcess(Samples.minimalRequest())
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { _ = try await client.getProcess(created.id) } }
                try await group.waitForAll()
            }
            // A burst of at most 3, then the other 5 or more at 3 per second.
            #expect(ContinuousClock.now - start >= .milliseconds(1_600))
        }
    }

    @Test func liveCallsOvertakeQueuedBackgroundCalls() async throws {
        try await withEmulator(rateLimit: 0) { unico in
            // The limiter's own clock moves only here: the bucket is empty until a token is let in,
            // one at a time, and each call is waited for, so the order cannot depend on timing.
            let time = TestClock()
            let limiter = HumanTokenRateLimiter(requestsPerSecond: 10, clock: time.read)
            var configuration = unico.configuration(rateLimit: 10)
            configuration.liveRateWait = 600
            let client = try HumanTokenAPIClient(configuration: configuration, rateLimiter: limiter)
            let created = try await client.createProcess(Samples.minimalRequest())
            limiter.pause(for: 0)
            let order = Recorder()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        _ = try await client.getProcess(created.id, priority: .background)
                        order.record("background")
                    }
                }
                try await waitUntil("4 background calls queue") { limiter.waiting == 4 }
                for _ in 0..<2 {
                    group.addTask {
                        _ = try await client.createProcess(Samples.minimalRequest(), priority: .live)
                        order.record("live")
                    }
                }
                try await waitUntil("2 live calls queue too") { limiter.waiting == 6 }
                for finished in 1...6 {
                    time.advance(by: 0.1)
                    try await waitUntil("call \(finished) finishes") { order.all.count == finished }
                }
                try await group.waitForAll()
            }
            #expect(order.all == ["live", "live", "background", "background", "background", "background"])
        }
    }
}

/// The ``HumanTokenAPIError`` `body` throws, or nil when it succeeds.
func apiErrorOrNil(_ body: () async throws -> some Any) async -> HumanTokenAPIError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? HumanTokenAPIError
    }
}
