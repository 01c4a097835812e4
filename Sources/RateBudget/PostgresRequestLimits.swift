import Foundation
import Postgres
import Synchronization

/// Request rate limits shared by every `serve` process: token buckets in `request_rate_buckets`
/// (schema 0039), on the database's clock, one round trip per ``take(_:cost:)``.
///
/// A local copy of each bucket, at the same rate and burst, is checked first: a client over its
/// limit in this process alone is refused without asking the database (a flood costs no round
/// trip). A token the database refuses goes back to the local copy, so the local copies never
/// refuse what the shared buckets would allow.
public final class PostgresRequestLimits: Sendable {
    /// One bucket: its key (e.g. `key:<uuid>`, never a secret), tokens per second and burst.
    public struct Bucket: Sendable, Hashable {
        public var key: String
        public var rate: Double
        public var burst: Double

        public init(key: String, rate: Double, burst: Double) {
            self.key = key
            self.rate = rate
            self.burst = burst
        }
    }

    /// Why a take failed.
    public enum Failure: Error, Sendable {
        /// The database did not answer; the caller decides (the API lets the request go on).
        case unavailable(any Error)
    }

    private let client: PostgresClient
    private let local: Mutex<LocalBuckets>

    /// Limits over `client` (the application role); `localCapacity` bounds the buckets kept in
    /// memory (refilled ones are dropped first). Default 10,000.
    public init(client: PostgresClient, localCapacity: Int = 10_000) {
        self.client = client
        self.local = Mutex(LocalBuckets(capacity: localCapacity))
    }

    /// Takes `cost` tokens from every bucket, all or none: nil when taken, else how long until
    /// they all hold them. A cost of 0 only checks that each still holds a token. Throws
    /// ``Failure/unavailable(_:)`` when the database does not answer.
    public func take(_ buckets: [Bucket], cost: Double = 1) async throws -> Duration? {
        guard !buckets.isEmpty else { return nil }
        let now = ContinuousClock.now
        if let wait = local.withLock({ $0.take(buckets, cost: cost, now: now) }) { return Self.duration(wait) }
        let wait: Double
        do {
            wait =
                try await client.query(
                    RateBudgetStatements.take(
                        buckets: buckets.map(\.key), rates: buckets.map(\.rate), bursts: buckets.map(\.burst), cost: cost
                    )
                ).first?.decode(0, as: Double.self) ?? 0
        } catch {
            local.withLock { $0.refund(buckets, cost: cost) }
            throw Failure.unavailable(error)
        }
        guard wait > 0 else { return nil }
        local.withLock { $0.refund(buckets, cost: cost) }
        return Self.duration(wait)
    }

    private static func duration(_ seconds: Double) -> Duration {
        .microseconds(Int64((min(seconds, 86_400) * 1_000_000).rounded(.up)))
    }
}
