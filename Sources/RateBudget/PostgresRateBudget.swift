import Foundation
import HumanTokenAPI
import Postgres
import Synchronization

/// A tenant's Unico rate shared by every `serve` and `work` process: a token bucket row in
/// `unico_rate_buckets` (schema 0014), on the database's clock.
///
/// Fails open: when the database cannot answer, the call goes on under the process's own
/// limiter (and Unico's 429s slow it down) rather than stalling live journeys; ``failures``
/// counts those calls.
public final class PostgresRateBudget: SharedRateBudget {
    public struct Configuration: Sendable {
        /// The row's key, e.g. `UAT:acme`.
        public var bucket: String
        /// Calls per second for the whole tenant.
        public var rate: Double
        /// Tokens a background call leaves in the bucket for live ones. Default: 30% of the burst.
        public var liveReserve: Double

        public init(bucket: String, rate: Double, liveReserve: Double? = nil) {
            self.bucket = bucket
            self.rate = rate
            self.liveReserve = liveReserve ?? max(1, rate.rounded(.down)) * 0.3
        }
    }

    public let configuration: Configuration
    private let client: PostgresClient
    private let failureCount = Atomic<Int>(0)

    public init(client: PostgresClient, configuration: Configuration) {
        self.client = client
        self.configuration = configuration
    }

    /// Calls that went on without the shared budget because the database did not answer.
    public var failures: Int { failureCount.load(ordering: .relaxed) }

    public func take(_ priority: RequestPriority) async -> Duration? {
        let reserve = priority == .live ? 0 : configuration.liveReserve
        do {
            let wait = try await client.query(
                RateBudgetStatements.take(bucket: configuration.bucket, rate: configuration.rate, reserve: reserve)
            ).first?.decode(0, as: Double.self) ?? 0
            return wait > 0 ? .microseconds(Int64((wait * 1_000_000).rounded(.up))) : nil
        } catch {
            failureCount.add(1, ordering: .relaxed)
            return nil
        }
    }

    public func pause(for seconds: TimeInterval) async {
        do {
            _ = try await client.query(RateBudgetStatements.pause(bucket: configuration.bucket, seconds: seconds))
        } catch {
            failureCount.add(1, ordering: .relaxed)
        }
    }
}
