import EventStore
import Foundation
import HumanTokenAPI
import JourneyDomain
import Postgres
import Privacy

/// What the use cases need besides the database: sealing, Unico clients, the retry policy, and
/// the sources of time, randomness and ids.
public struct EngineDependencies: Sendable {
    /// Seals personal data and Unico secrets before they are appended.
    public var vault: SubjectVault
    /// One Unico client per environment; an attempt in an environment without one fails with
    /// `unico_not_configured`.
    public var unico: [Environment: HumanTokenAPIClient]
    /// Tenants with Unico settings of their own (their own service account), by tenant name:
    /// their journeys use these in the environments they configure, the deployment's elsewhere.
    /// Default: none.
    public var tenantUnico: [String: [Environment: HumanTokenAPIClient]] = [:]
    /// The policy frozen into new journeys. Default ``RetryPolicy/standard``.
    public var retryPolicy: RetryPolicy
    /// The time of decisions. Default: the system clock.
    public var clock: @Sendable () -> Date
    /// The random unit (0..<1) of decisions. Default: the system generator.
    public var random: @Sendable () -> Double
    /// New journey and correlation ids. Default: random UUIDs.
    public var ids: @Sendable () -> UUID
    /// How long a token request waits for another request's Create Process of the same attempt
    /// (two racing requests are one capture) before answering `process_creation_pending`.
    /// Default 10 s (Create Process's own timeout).
    public var tokenCreationWait: Duration = .seconds(10)
    /// How a start's Idempotency-Key is held and how long a replay waits for it.
    public var idempotency = IdempotencyConfiguration()

    public init(
        vault: SubjectVault, unico: [Environment: HumanTokenAPIClient], retryPolicy: RetryPolicy = .standard,
        clock: @escaping @Sendable () -> Date = Date.init,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        ids: @escaping @Sendable () -> UUID = UUID.random
    ) {
        self.vault = vault
        self.unico = unico
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.random = random
        self.ids = ids
    }

    /// The Unico client for a journey of `tenant` (nil: the default tenant) in `environment`: the
    /// tenant's own when it has settings for it, else the deployment's, taken within the tenant's
    /// share of it (``HumanTokenAPIClient/forCaller(_:)``); nil when neither exists.
    public func unicoClient(_ environment: Environment, tenant: String?) -> HumanTokenAPIClient? {
        tenant.flatMap { tenantUnico[$0]?[environment] } ?? unico[environment]?.forCaller(tenant ?? "default")
    }

    /// Every Unico client, the deployment's and the tenants' own.
    public var allUnicoClients: [HumanTokenAPIClient] {
        Array(unico.values) + tenantUnico.values.flatMap(\.values)
    }

    /// Development sealing keys and the given Unico clients: for tests and the embedded database.
    public static func development(
        database: PostgresClient,
        unico: [Environment: HumanTokenAPIClient] = [:]
    ) -> EngineDependencies {
        EngineDependencies(vault: SubjectVault(client: database, configuration: .development()), unico: unico)
    }
}
