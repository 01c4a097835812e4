import Foundation
import HumanTokenAPI
import Postgres
import Synchronization

/// A tenant's Unico rate shared by every `serve` and `work` process: a token bucket row in
/// `unico_rate_buckets` (schema 0014), on the database's clock.
///
/// Journeys tenants without a Unico account of their own share the deployment's bucket; with
/// ``Configuration/tenantShare`` below 1, ``forCaller(_:)`` gives each its own share of it
/// (`take_unico_share`, schema 0039), so that one flooding tenant cannot starve the others.
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
        /// The part of ``rate`` guaranteed to each caller (journeys tenant) of ``forCaller(_:)``;
        /// beyond it a caller borrows only while the bucket keeps the rest of its burst for the
        /// others. 1: no shares. Default 1.
        public var tenantShare: Double
        /// The caller whose share this budget takes from (set by ``forCaller(_:)``). Default nil.
        public var caller: String?

        public init(bucket: String, rate: Double, liveReserve: Double? = nil, tenantShare: Double = 1) {
            self.bucket = bucket
            self.rate = rate
            self.liveReserve = liveReserve ?? max(1, rate.rounded(.down)) * 0.3
            self.tenantShare = tenantShare
        }

        /// The row holding `caller`'s share, e.g. `UAT:acme/tenant:globex`.
        var shareBucket: String? { caller.map { "\(bucket)/tenant:\($0)" } }
    }

    public let configuration: Configuration
    private let client: PostgresClient
    private let failureCount: Counter

    /// The failures of a budget and of its callers' (``forCaller(_:)``).
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    public convenience init(client: PostgresClient, configuration: Configuration) {
        self.init(client: client, configuration: configuration, failures: Counter())
    }

    private init(client: PostgresClient, configuration: Configuration, failures: Counter) {
        self.client = client
        self.configuration = configuration
        self.failureCount = failures
    }

    /// The same bucket taken within `caller`'s share; nil when shares are off (``Configuration/tenantShare`` 1).
    public func forCaller(_ caller: String) -> (any SharedRateBudget)? {
        guard configuration.tenantShare < 1, configuration.tenantShare > 0, configuration.caller == nil else { return nil }
        var configuration = configuration
        configuration.caller = caller
        return PostgresRateBudget(client: client, configuration: configuration, failures: failureCount)
    }

    /// Calls that went on without the shared budget because the database did not answer.
    public var failures: Int { failureCount.value.load(ordering: .relaxed) }

    public func take(_ priority: RequestPriority) async -> Duration? {
        let reserve = priority == .live ? 0 : configuration.liveReserve
        do {
            let query =
                configuration.shareBucket.map {
                    RateBudgetStatements.take(
                        bucket: configuration.bucket, shareBucket: $0, rate: configuration.rate,
                        reserve: reserve, share: configuration.tenantShare)
                } ?? RateBudgetStatements.take(bucket: configuration.bucket, rate: configuration.rate, reserve: reserve)
            let wait = try await client.query(query).first?.decode(0, as: Double.self) ?? 0
            return wait > 0 ? .microseconds(Int64((wait * 1_000_000).rounded(.up))) : nil
        } catch {
            failureCount.value.add(1, ordering: .relaxed)
            return nil
        }
    }

    public func pause(for seconds: TimeInterval) async {
        do {
            _ = try await client.query(RateBudgetStatements.pause(bucket: configuration.bucket, seconds: seconds))
        } catch {
            failureCount.value.add(1, ordering: .relaxed)
        }
    }
}
