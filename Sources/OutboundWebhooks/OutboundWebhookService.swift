import EventStore
import Foundation
import Postgres

/// Outbound webhooks as one long-running service: the follower that queues a delivery when a
/// journey ends and the dispatcher that sends them, until cancelled.
///
/// ```swift
/// let sealer = try WebhookSecretSealer(privacy: privacyConfiguration)
/// let webhooks = OutboundWebhookService(owner: try await database.verifiedProjector(), app: database.app, sealer: sealer)
/// try await withThrowingTaskGroup(of: Void.self) { group in
///     group.addTask { try await webhooks.run() }
///     ...
/// }
/// ```
///
/// Any number of processes may run it: one follower works at a time (the others find its
/// checkpoint locked and wait), and dispatchers share the work through leases. `run()` returns
/// when cancelled and throws only when the follower stalls on an event it cannot read.
public struct OutboundWebhookService: Sendable {
    public struct Configuration: Sendable {
        /// The follower's batch size and poll interval; ``JourneyWebhookFollower/Configuration`` defaults.
        public var follower: JourneyWebhookFollower.Configuration
        /// Claims, timeouts and retries; ``WebhookDispatcher/Configuration`` defaults (retries over ≥ 72 h).
        public var dispatcher: WebhookDispatcher.Configuration

        public init(
            follower: JourneyWebhookFollower.Configuration = .init(),
            dispatcher: WebhookDispatcher.Configuration = .init()
        ) {
            self.follower = follower
            self.dispatcher = dispatcher
        }
    }

    public let configuration: Configuration
    public let follower: JourneyWebhookFollower
    public let dispatcher: WebhookDispatcher

    /// - Parameters:
    ///   - owner: a `journeys_projector` (or schema-owner) client, for the follower (it writes its
    ///     checkpoint and the outbox).
    ///   - app: the application-role client, for the dispatcher.
    ///   - sealer: opens the endpoints' sealed secrets.
    ///   - now: the clock; `random`: uniform in [0, 1), for retry jitter.
    public init(
        owner: PostgresClient, app: PostgresClient, sealer: WebhookSecretSealer,
        configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.configuration = configuration
        self.follower = JourneyWebhookFollower(client: owner, configuration: configuration.follower, now: now)
        self.dispatcher = WebhookDispatcher(
            client: app, sealer: sealer, configuration: configuration.dispatcher,
            now: now, random: random)
    }

    /// Runs the follower and the dispatcher until cancelled.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await follower.run() }
            group.addTask { try await dispatcher.run() }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
