import AccessControl
import DataSubjects
import Foundation
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import Observability
import OutboundWebhooks
import Privacy
import Retention
import Workers

/// Everything a process of the service reads from its surroundings, read once: the environment
/// variables (and the Unico settings file) of `serve` and `work`, the settings their arguments
/// give, and, for the emulator stacks (`demo`, `journeys-bench e2e`, the tests' `TestStack`), the
/// same settings set in code. ``JourneyApp`` builds the process from it. A bad value is refused
/// here (`invalid_input` naming the variable); a missing key is refused by ``JourneyApp`` unless
/// the database is the embedded one (public development keys, see ``DevelopmentKeys``).
public struct AppConfiguration: Sendable {
    /// `DATABASE_URL`, `DATABASE_PROJECTOR_URL`, `JOURNEYS_PG_DIR`, … Default: the embedded cluster.
    public var database = DatabaseSettings()
    /// The deployment's Unico clients' settings by environment (`UNICO_UAT_*`, `UNICO_PROD_*` or
    /// the settings file). Default none.
    public var unico: [Environment: HumanTokenAPIConfiguration] = [:]
    /// Tenants' own Unico clients' settings (the settings file's `tenants`). Default none.
    public var tenantUnico: [String: [Environment: HumanTokenAPIConfiguration]] = [:]
    /// Whether the Unico clients share each tenant's rate with every process through the database
    /// (`unico_rate_buckets`). Default true; the emulator stacks turn it off.
    public var sharedUnicoRate = true
    /// `JOURNEYS_UNICO_TENANT_SHARE`. Default 0.5.
    public var tenantShare = UnicoSettings.defaultTenantShare
    /// This process's share of each Unico rate (`work --unico-share`). Default 1.
    public var unicoShare = 1.0
    /// The Unico clients' clock (assertions, token caching). Default: the system clock.
    public var unicoClock: @Sendable () -> Date = Date.init
    /// `JOURNEYS_KEK`, …; nil when unset (development keys on the embedded database only).
    public var privacy: PrivacyConfiguration?
    /// `JOURNEYS_CLIENT_TOKEN_KEY`; nil when unset (as ``privacy``).
    public var clientTokens: ClientTokenIssuer?
    /// `JOURNEYS_SESSION_KEY`; nil when unset (as ``privacy``).
    public var sessionTokens: ClientTokenIssuer?
    /// `JOURNEYS_RETRY_*`: the policy frozen into new journeys. Default ``RetryPolicy/standard``.
    public var retryPolicy: RetryPolicy = .standard
    /// `UNICO_WEBHOOK_AUTH`; nil refuses Unico's webhooks. Default nil.
    public var webhookAuthentication: WebhookAuthenticator?
    /// Tenants' own Unico webhook credentials (the settings file). Default none.
    public var tenantWebhookAuthentication: [String: WebhookAuthenticator] = [:]
    /// `JOURNEYS_WEBHOOK_ALLOW_HOSTS`, `JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS`. Default: special addresses refused.
    public var webhookDestinations = WebhookDestinationPolicy()
    /// The outbound webhooks (`JOURNEYS_WEBHOOK_AUTO_DISABLE_AFTER`, `JOURNEYS_WEBHOOK_CA_FILE`, destinations).
    public var outboundWebhooks = OutboundWebhookService.Configuration()
    /// `JOURNEYS_RETENTION*`. Default: the policy's defaults.
    public var retention = Retention.Configuration()
    /// `JOURNEYS_ERASURE_LEDGER`. Default none.
    public var erasureLedger: ErasureLedger?
    /// The API: listener (arguments), `JOURNEYS_METRICS_TOKEN`, `REPORTS_MAX_LAG`,
    /// `JOURNEYS_RATE_LIMIT_*`. Default ``APIServer/Configuration/init()``.
    public var server = APIServer.Configuration()
    /// Whether the process serves the API (`serve`, the emulator stacks): only then is
    /// `JOURNEYS_SESSION_KEY` required off the embedded database. `work` sets it false. Default true.
    public var servesAPI = true
    /// The workers of this process (`work`, `serve --with-workers`); nil runs none. Default nil.
    public var workers: WorkerService.Configuration?
    /// The time of decisions and tokens. Default: the system clock.
    public var clock: @Sendable () -> Date = Date.init
    /// Where each journey start's stage times go (`journeys-bench e2e`). Default nil.
    public var startStages: (@Sendable ([StageTimer.Stage]) -> Void)?
    /// Where the app's services log. Default: standard error.
    public var logSink: Logger.Sink = Logger.standardError

    /// The defaults: no Unico client, no keys (set them, or run on the embedded database).
    public init() {}

    /// Reads `variables` (and the Unico settings file: `unicoConfig`, else `UNICO_CONFIG_FILE`).
    public init(_ variables: [String: String], unicoConfig: String? = nil) throws {
        database = DatabaseSettings.from(environment: variables)
        retryPolicy = try RetryPolicy.fromEnvironment(variables)
        unico = try UnicoSettings.configurations(variables, file: unicoConfig)
        tenantUnico = try UnicoSettings.tenantConfigurations(variables, file: unicoConfig)
        tenantShare = try UnicoSettings.tenantShare(variables)
        if variables[PrivacyConfiguration.Variable.activeKey] != nil {
            privacy = try PrivacyConfiguration.fromEnvironment(variables)
        }
        if variables[ClientTokenIssuer.environmentVariable] != nil {
            clientTokens = try ClientTokenIssuer(environment: variables)
        }
        if variables[ClientTokenIssuer.sessionKeyVariable] != nil {
            do {
                sessionTokens = try ClientTokenIssuer.sessions(environment: variables)
            } catch let error as AccessError {
                throw AppError(.invalidInput, error.message)
            }
        }
        webhookAuthentication = WebhookAuthenticator.configured(variables)
        tenantWebhookAuthentication = try UnicoSettings.tenantWebhookAuthentications(
            variables, file: unicoConfig, deployment: webhookAuthentication)
        webhookDestinations = try Wiring.webhookDestinations(variables)
        outboundWebhooks.dispatcher.destinations = webhookDestinations
        do {
            outboundWebhooks.dispatcher.autoDisableAfter = try WebhookDispatcher.Configuration.autoDisableAfter(
                variables[WebhookDispatcher.Configuration.autoDisableVariable])
            outboundWebhooks.dispatcher.trustedCertificates = try WebhookDispatcher.Configuration.trustedCertificates(
                variables[WebhookDispatcher.Configuration.caFileVariable])
        } catch {
            throw AppError(.invalidInput, error.message)
        }
        retention = try Wiring.retentionConfiguration(variables)
        erasureLedger = ErasureLedger.fromEnvironment(variables)
        server.metricsToken = variables[APIServer.Configuration.metricsTokenVariable]
        if let text = variables[APIServer.Configuration.reportsMaxLagVariable], !text.isEmpty {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw AppError(
                    .invalidInput,
                    "\(APIServer.Configuration.reportsMaxLagVariable) must be a number of seconds (0: no bound), not \(text)")
            }
            server.reportsMaxLag = seconds == 0 ? nil : seconds
        }
        do {
            server.rateLimits = try RequestRateLimits.fromEnvironment(variables)
        } catch let error as RequestRateLimits.InvalidSetting {
            throw AppError(.invalidInput, error.message)
        }
    }
}
