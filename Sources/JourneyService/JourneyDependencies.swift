import AccessControl
import Foundation
import HumanTokenAPI
import JourneyDomain
import Postgres
import Privacy

/// What the journey routes need besides the database: sealing, client tokens and Unico clients.
public struct JourneyDependencies: Sendable {
    /// Seals personal data and Unico secrets before they are appended.
    public var vault: SubjectVault
    /// Signs and verifies the journey-scoped client tokens handed to the app.
    public var clientTokens: ClientTokenIssuer
    /// One Unico client per environment; a journey in an environment without one answers 503.
    public var unico: [Environment: HumanTokenAPIClient]
    /// The policy frozen into new journeys. Default ``RetryPolicy/standard``.
    public var retryPolicy: RetryPolicy
    /// How long a replay waits for the first request with its idempotency key. Default 15 s.
    public var idempotencyWait: Duration
    /// The time of decisions and tokens. Default: the system clock.
    public var clock: @Sendable () -> Date
    /// How Unico authenticates its webhooks; nil refuses every webhook (401). Default: read from
    /// `UNICO_WEBHOOK_AUTH` (`basic:user:password`, `header:Name:value` or `bearer:token`);
    /// an unreadable value leaves it nil and says so on standard error (without the value).
    public var webhookAuthentication: WebhookAuthenticator?

    public init(
        vault: SubjectVault, clientTokens: ClientTokenIssuer, unico: [Environment: HumanTokenAPIClient],
        retryPolicy: RetryPolicy = .standard, idempotencyWait: Duration = .seconds(15),
        clock: @escaping @Sendable () -> Date = Date.init,
        webhookAuthentication: WebhookAuthenticator? = WebhookAuthenticator.configured()
    ) {
        self.webhookAuthentication = webhookAuthentication
        self.vault = vault
        self.clientTokens = clientTokens
        self.unico = unico
        self.retryPolicy = retryPolicy
        self.idempotencyWait = idempotencyWait
        self.clock = clock
    }

    /// Development keys for sealing and client tokens and no Unico client: for tests and the embedded database.
    public static func development(database: PostgresClient,
                                   unico: [Environment: HumanTokenAPIClient] = [:]) throws -> JourneyDependencies {
        JourneyDependencies(
            vault: SubjectVault(client: database, configuration: .development()),
            clientTokens: try .development(), unico: unico)
    }
}
