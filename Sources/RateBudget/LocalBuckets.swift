import Foundation

/// The in-process copies of the buckets ``PostgresRequestLimits`` was asked about.
struct LocalBuckets: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let capacity: Int
    private var buckets: [String: Bucket] = [:]

    init(capacity: Int) { self.capacity = capacity }

    /// Takes `cost` from each bucket, all or none: nil when taken, else the seconds to wait.
    mutating func take(_ asked: [PostgresRequestLimits.Bucket], cost: Double, now: ContinuousClock.Instant) -> Double? {
        var wait = 0.0
        var refilled: [Double] = []
        for bucket in asked {
            let current = buckets[bucket.key]
            let elapsed = current.map { (now - $0.updated) / .seconds(1) } ?? 0
            let tokens = min(bucket.burst, (current?.tokens ?? bucket.burst) + max(elapsed, 0) * bucket.rate)
            refilled.append(tokens)
            wait = max(wait, (max(cost, 1) - tokens) / bucket.rate)
        }
        if wait > 1e-9 { return wait }
        if buckets.count + asked.count > capacity { prune() }
        for (bucket, tokens) in zip(asked, refilled) {
            buckets[bucket.key] = Bucket(tokens: max(tokens - cost, 0), updated: now)
        }
        return nil
    }

    /// Gives back what ``take(_:cost:now:)`` took (the database refused or did not answer).
    mutating func refund(_ asked: [PostgresRequestLimits.Bucket], cost: Double) {
        for bucket in asked {
            guard var current = buckets[bucket.key] else { continue }
            current.tokens = min(bucket.burst, current.tokens + cost)
            buckets[bucket.key] = current
        }
    }

    /// Drops the oldest half of the buckets: a dropped bucket only starts full again, and the
    /// database's copy still holds.
    private mutating func prune() {
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(max(buckets.count / 2, 1))
        for (key, _) in oldest { buckets[key] = nil }
    }
}
