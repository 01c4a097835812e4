import Foundation
import Synchronization

/// A client-side limit on API calls for one tenant: a token bucket with two priorities.
///
/// Live calls (journey starts) are always served before background calls; a background call
/// waits while any live call waits. Clients of the same tenant should share one limiter; with
/// a `shared` budget, processes of the same tenant share its rate too.
public final class HumanTokenRateLimiter: Sendable {
    private let state: Mutex<RateLimiterState>
    private let clock: @Sendable () -> Date
    private let shared: (any SharedRateBudget)?
    private let requestsPerSecond: Double
    private let callers = Mutex<[String: HumanTokenRateLimiter]>([:])

    /// A limiter allowing `requestsPerSecond` calls, with bursts of up to that many.
    ///
    /// `clock` defaults to the system clock; waits are real sleeps of the clock's differences.
    /// `shared`, when given, is asked after this limiter admits a call.
    public init(
        requestsPerSecond: Double = HumanTokenAPIConfiguration.defaultRateLimit,
        clock: @escaping @Sendable () -> Date = Date.init, shared: (any SharedRateBudget)? = nil
    ) {
        self.clock = clock
        self.shared = shared
        self.requestsPerSecond = requestsPerSecond
        self.state = Mutex(RateLimiterState(rate: requestsPerSecond, now: clock()))
    }

    /// Returns when a call of `priority` may go; throws `CancellationError` if the task is cancelled.
    ///
    /// With a `deadline` (a live call's bounded wait), throws `rate_limited` (with a
    /// `retryAfter`) as soon as the token would come after it, instead of waiting longer.
    public func acquire(_ priority: RequestPriority, before deadline: ContinuousClock.Instant? = nil) async throws {
        let ticket = state.withLock { $0.enqueue(priority) }
        do {
            while true {
                let decision = state.withLock { $0.poll(ticket, now: clock()) }
                guard case .wait(let until) = decision else { break }
                let delay = max(until.timeIntervalSince(clock()), 0.001)
                try Self.check(delay, before: deadline)
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        } catch {
            state.withLock { $0.cancel(ticket) }
            throw error
        }
        guard let shared else { return }
        while let wait = await shared.take(priority) {
            try Self.check(wait / .seconds(1), before: deadline)
            try await Task.sleep(for: max(wait, .milliseconds(1)))
        }
    }

    /// Throws `rate_limited` when a token `delay` seconds away comes after `deadline`.
    private static func check(_ delay: TimeInterval, before deadline: ContinuousClock.Instant?) throws {
        guard let deadline, ContinuousClock.now + .seconds(delay) > deadline else { return }
        let seconds = max(1, Int(delay.rounded(.up)))
        throw HumanTokenAPIError(.rateLimited, "no rate token within the live wait", retryAfter: seconds)
    }

    /// Stops serving anyone for `seconds` (a 429's `Retry-After`).
    public func pause(for seconds: TimeInterval) {
        let now = clock()
        state.withLock { $0.pause(until: now.addingTimeInterval(seconds), now: now) }
        if let shared { Task { await shared.pause(for: seconds) } }
    }

    /// The limiter of `caller` (a journeys tenant using the deployment's Unico account) when the
    /// shared budget gives callers shares: its own queue at this limiter's rate (so that another
    /// tenant's backlog does not queue ahead of it) over its share of the budget; else this limiter.
    public func forCaller(_ caller: String) -> HumanTokenRateLimiter {
        guard let budget = shared?.forCaller(caller) else { return self }
        return callers.withLock { limiters in
            if let limiter = limiters[caller] { return limiter }
            let limiter = HumanTokenRateLimiter(requestsPerSecond: requestsPerSecond, clock: clock, shared: budget)
            limiters[caller] = limiter
            return limiter
        }
    }

    /// How many calls are waiting.
    public var waiting: Int { state.withLock { $0.waiting } }
}
