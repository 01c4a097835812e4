import Foundation

/// A token bucket: `capacity` requests at once, refilled at `ratePerSecond`.
struct TokenBucket: Sendable {
    let capacity: Double
    let ratePerSecond: Double
    private var tokens: Double
    private var updatedAt: Date

    init(ratePerSecond: Int, now: Date) {
        capacity = Double(ratePerSecond)
        self.ratePerSecond = Double(ratePerSecond)
        tokens = capacity
        updatedAt = now
    }

    /// Takes one token; returns nil when granted, else the whole seconds to wait (at least 1).
    mutating func take(now: Date) -> Int? {
        let elapsed = max(0, now.timeIntervalSince(updatedAt))
        tokens = min(capacity, tokens + elapsed * ratePerSecond)
        updatedAt = max(updatedAt, now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / ratePerSecond).rounded(.up)))
    }
}
