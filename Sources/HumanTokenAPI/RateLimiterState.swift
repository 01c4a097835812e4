import Foundation

/// The token bucket and two-priority queue behind ``HumanTokenRateLimiter``, without I/O or clocks.
///
/// Callers take a ticket, then poll with the current time until told to proceed. A ticket may
/// proceed only when it heads the queue (every live ticket before every background one) and a
/// token is in the bucket. A pause empties the bucket and stops refilling until it ends.
struct RateLimiterState: Sendable {
    /// What a polling ticket should do.
    enum Decision: Sendable, Equatable {
        /// Go ahead: a token was taken and the ticket left the queue.
        case proceed
        /// Poll again at this time.
        case wait(until: Date)
    }

    /// Slack for floating-point time arithmetic, in tokens.
    private static let tolerance = 1e-6

    /// Tokens added per second.
    let rate: Double
    /// The most tokens the bucket holds (the burst size).
    let capacity: Double
    private var tokens: Double
    /// Tokens are accounted up to here; later than now while paused.
    private var updatedAt: Date
    private var live: [UInt64] = []
    private var background: [UInt64] = []
    private var nextTicket: UInt64 = 0

    /// A full bucket of `max(1, rate)` tokens as of `now`.
    init(rate: Double, now: Date) {
        precondition(rate > 0, "rate must be positive")
        self.rate = rate
        self.capacity = max(1, rate.rounded(.down))
        self.tokens = capacity
        self.updatedAt = now
    }

    /// How many tickets wait.
    var waiting: Int { live.count + background.count }

    /// Queues a new ticket at the back of its priority's queue.
    mutating func enqueue(_ priority: RequestPriority) -> UInt64 {
        nextTicket += 1
        switch priority {
        case .live: live.append(nextTicket)
        case .background: background.append(nextTicket)
        }
        return nextTicket
    }

    /// Whether `ticket` may proceed at `now`, or when to ask again.
    mutating func poll(_ ticket: UInt64, now: Date) -> Decision {
        refill(now)
        guard let position = live.firstIndex(of: ticket) ?? background.firstIndex(of: ticket).map({ live.count + $0 })
        else { return .proceed }
        if position == 0, tokens >= 1 - Self.tolerance, now >= updatedAt {
            tokens = max(tokens - 1, 0)
            if live.first == ticket { live.removeFirst() } else { background.removeFirst() }
            return .proceed
        }
        let missing = Double(position + 1) - tokens
        return .wait(until: max(now, updatedAt).addingTimeInterval(max(missing, 0) / rate))
    }

    /// Removes a ticket whose caller gave up.
    mutating func cancel(_ ticket: UInt64) {
        live.removeAll { $0 == ticket }
        background.removeAll { $0 == ticket }
    }

    /// Serves nobody until `until` (Unico's `Retry-After`), then refills from empty.
    mutating func pause(until: Date, now: Date) {
        refill(now)
        tokens = 0
        updatedAt = max(updatedAt, until)
    }

    private mutating func refill(_ now: Date) {
        guard now > updatedAt else { return }
        tokens = min(capacity, tokens + now.timeIntervalSince(updatedAt) * rate)
        updatedAt = now
    }
}
