import JourneyAPI
import Lifecycle
import Observability
import Postgres
import OutboundWebhooks
import Projections
import Workers

/// The long-running parts of `serve`, `work` and `projections run` as services of one
/// ``Lifecycle/ServiceGroup``. Start order: the followers of the log, then the workers, then the
/// HTTP listener; a shutdown (SIGTERM, SIGINT) goes in reverse, so the listener stops accepting
/// first, then the workers stop claiming, then the followers stop.
public enum AppServices {
    public typealias Entry = ServiceGroupConfiguration.ServiceConfiguration

    /// The hint logged when a follower lacks the projector's rights.
    static let projectorHint = "set DATABASE_PROJECTOR_URL to the journeys_projector role"

    /// The `journey_state` projection as the projector role (``Database/verifiedProjector()``).
    /// When it cannot run, it logs a warning once and the rest of the process keeps running.
    public static func projections(_ projector: PostgresClient, logger: Logger = Logger(label: "projections")) -> Entry {
        let runner = ProjectionRunner(client: projector)
        return Entry(
            service: NonEssentialService(
                service: runner, logger: logger, message: "projection stopped",
                metadata: ["projection": runner.name, "hint": projectorHint]),
            name: "projections", successTerminationBehavior: .ignore)
    }

    /// The outbound webhooks (follower and dispatcher). When they stop (no projector rights for
    /// the checkpoint, an event they cannot read), they log a warning once and the rest keeps running.
    public static func webhooks(_ webhooks: OutboundWebhookService, logger: Logger = Logger(label: "webhooks")) -> Entry {
        Entry(
            service: NonEssentialService(
                service: webhooks, logger: logger, message: "outbound webhooks stopped",
                metadata: ["hint": projectorHint]),
            name: "webhooks", successTerminationBehavior: .ignore)
    }

    /// The workers; their end shuts the group down.
    public static func worker(_ worker: WorkerService) -> Entry {
        Entry(service: worker, name: "worker")
    }

    /// The API, already listening; waits for its requests in flight up to its own shutdown timeout.
    public static func listener(_ server: APIServer) -> Entry {
        Entry(
            service: StartedAPIServer(server: server), name: "listener",
            gracefulShutdownTimeout: server.configuration.http.shutdownTimeout + .seconds(5))
    }

    /// Runs `services` under one group until SIGTERM/SIGINT or cancellation.
    public static func run(_ services: [Entry]) async throws {
        try await ServiceGroup(configuration: ServiceGroupConfiguration(services: services)).run()
    }
}
