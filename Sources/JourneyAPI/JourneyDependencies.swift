import AccessControl
import DataSubjects
import Foundation
import HumanTokenAPI
import JourneyDomain
import JourneyEngine
import Observability
import OutboundWebhooks
import Postgres
import Privacy

/// What the API needs besides the database: the engine's dependencies, client tokens and webhook
/// credentials.
public struct JourneyDependencies: Sendable {
    /// Sealing, Unico clients, retry policy, clock, randomness and ids of the use cases.
    public var engine: EngineDependencies
    /// Signs and verifies the journey-scoped client tokens handed to the app.
    public var clientTokens: ClientTokenIssuer
    /// Signs and verifies dashboard session cookies, with its own key. Default: the public
    /// development session key (the embedded stack); `serve` sets it from `JOURNEYS_SESSION_KEY`.
    public var sessionTokens: ClientTokenIssuer
    /// Whether the dashboard's session cookie is always `Secure`. Default false (in-process and
    /// loopback stacks); `serve` sets it when `--host` is beyond loopback.
    public var secureSessionCookie = false
    /// How Unico authenticates its webhooks; nil refuses every webhook (401). Default nil;
    /// `JourneyApp` reads `UNICO_WEBHOOK_AUTH` (`basic:user:password`, `header:Name:value` or
    /// `bearer:token`): an unreadable value leaves it nil and says so in the log (without the value).
    public var webhookAuthentication: WebhookAuthenticator?
    /// The Unico webhook credentials of tenants with a Unico account of their own, by tenant: a
    /// webhook presenting them touches only that tenant's journeys (see `WebhookCredentials`).
    /// Default none; `serve` reads each tenant's `webhookAuth` from the Unico settings file.
    public var tenantWebhookAuthentication: [String: WebhookAuthenticator] = [:]
    /// Where the API logs refused webhooks and failed result fetches (constant messages, never
    /// credentials or personal data). Default: label `api`, JSON lines on standard error.
    public var logger = Logger(label: "api")
    /// Where each journey start's stage times go (``StartStage``; `journeys bench e2e`); nil
    /// (the default) times nothing.
    public var startStages: (@Sendable ([StageTimer.Stage]) -> Void)?
    /// Which IP-literal webhook URLs `POST /v1/webhook-endpoints` accepts. Default: every special
    /// address refused; `serve` reads `JOURNEYS_WEBHOOK_ALLOW_HOSTS` and `JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS`.
    public var webhookDestinations = WebhookDestinationPolicy()
    /// Where the subject routes record each erasure before it starts. Default none; `JourneyApp`
    /// reads `JOURNEYS_ERASURE_LEDGER`.
    public var erasureLedger: ErasureLedger?

    public init(
        vault: SubjectVault, clientTokens: ClientTokenIssuer, unico: [Environment: HumanTokenAPIClient],
        retryPolicy: RetryPolicy = .standard, idempotencyWait: Duration = .seconds(2),
        clock: @escaping @Sendable () -> Date = Date.init,
        webhookAuthentication: WebhookAuthenticator? = nil
    ) {
        self.engine = EngineDependencies(vault: vault, unico: unico, retryPolicy: retryPolicy, clock: clock)
        self.webhookAuthentication = webhookAuthentication
        self.clientTokens = clientTokens
        // The fixed seed always yields a valid Ed25519 key.
        self.sessionTokens = try! ClientTokenIssuer.developmentSessions()
        self.engine.idempotency.wait = idempotencyWait
    }

    /// Development keys for sealing and client tokens and no Unico client: for tests and the embedded database.
    public static func development(
        database: PostgresClient,
        unico: [Environment: HumanTokenAPIClient] = [:]
    ) throws -> JourneyDependencies {
        JourneyDependencies(
            vault: SubjectVault(client: database, configuration: .development()),
            clientTokens: try .development(), unico: unico)
    }

    // The engine's settings, for callers that set them here.

    /// Seals personal data and Unico secrets before they are appended.
    public var vault: SubjectVault {
        get { engine.vault }
        set { engine.vault = newValue }
    }

    /// One Unico client per environment; a journey in an environment without one answers 503.
    public var unico: [Environment: HumanTokenAPIClient] {
        get { engine.unico }
        set { engine.unico = newValue }
    }

    /// The policy frozen into new journeys. Default ``RetryPolicy/standard``.
    public var retryPolicy: RetryPolicy {
        get { engine.retryPolicy }
        set { engine.retryPolicy = newValue }
    }

    /// How long a replay waits for the live request holding its idempotency key before 409
    /// `idempotency_key_in_progress`. Default 2 s.
    public var idempotencyWait: Duration {
        get { engine.idempotency.wait }
        set { engine.idempotency.wait = newValue }
    }

    /// The time of decisions and tokens. Default: the system clock.
    public var clock: @Sendable () -> Date {
        get { engine.clock }
        set { engine.clock = newValue }
    }
}
