import AccessControl
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import OutboundWebhooks
import Postgres
import Privacy
import Workers

/// Builds the services' collaborators from configuration: what `serve`, `work` and the webhook
/// commands run with. Development keys are used only on the embedded database.
public enum Wiring {
    /// Unico clients, sealing and client-token keys from `variables` (and the Unico settings file);
    /// development keys only on the embedded database. Every process shares each tenant's Unico
    /// rate through the database; this one's own limiter allows `unicoShare` of it.
    public static func dependencies(
        _ variables: [String: String], database: Database, unicoConfig: String? = nil,
        unicoShare: Double = 1
    ) throws -> JourneyDependencies {
        let retryPolicy = try RetryPolicy.fromEnvironment(variables)
        let embedded = database.embedded != nil
        var unico: [Environment: HumanTokenAPIClient] = [:]
        for (environment, configuration) in try UnicoSettings.configurations(variables, file: unicoConfig) {
            unico[environment] = try UnicoSettings.client(
                configuration, share: unicoShare, sharedWith: database.app,
                tenantShare: try UnicoSettings.tenantShare(variables))
        }
        var tenantUnico: [String: [Environment: HumanTokenAPIClient]] = [:]
        for (tenant, configurations) in try UnicoSettings.tenantConfigurations(variables, file: unicoConfig) {
            tenantUnico[tenant] = try configurations.mapValues {
                try UnicoSettings.client($0, share: unicoShare, sharedWith: database.app)
            }
        }
        if unico.isEmpty, tenantUnico.isEmpty, !embedded {
            throw AppError(
                .invalidInput,
                "no Unico environment is configured: set \(HumanTokenAPIEnvironment.uat.variablePrefix)"
                    + "SERVICE_ACCOUNT, ...TENANT and ...PRIVATE_KEY_FILE (or the \(HumanTokenAPIEnvironment.prod.variablePrefix) ones), "
                    + "or give --unico-config FILE (\(UnicoSettings.fileVariable))")
        }
        let privacy: PrivacyConfiguration
        if variables[PrivacyConfiguration.Variable.activeKey] != nil || !embedded {
            guard variables[PrivacyConfiguration.Variable.activeKey] != nil else {
                throw AppError(.invalidInput, "\(PrivacyConfiguration.Variable.activeKey) is not set")
            }
            privacy = try PrivacyConfiguration.fromEnvironment(variables)
        } else {
            privacy = .development()
        }
        let clientTokens: ClientTokenIssuer
        if variables[ClientTokenIssuer.environmentVariable] != nil || !embedded {
            guard variables[ClientTokenIssuer.environmentVariable] != nil else {
                throw AppError(.invalidInput, "\(ClientTokenIssuer.environmentVariable) is not set")
            }
            clientTokens = try ClientTokenIssuer(environment: variables)
        } else {
            clientTokens = try .development()
        }
        var dependencies = JourneyDependencies(
            vault: SubjectVault(client: database.app, configuration: privacy),
            clientTokens: clientTokens, unico: unico,
            retryPolicy: retryPolicy)
        dependencies.engine.tenantUnico = tenantUnico
        dependencies.tenantWebhookAuthentication = try UnicoSettings.tenantWebhookAuthentications(
            variables, file: unicoConfig, deployment: dependencies.webhookAuthentication)
        dependencies.webhookDestinations = try webhookDestinations(variables)
        return dependencies
    }

    /// The dashboard session issuer from `JOURNEYS_SESSION_KEY` (and `JOURNEYS_SESSION_KEYS_PREVIOUS`);
    /// the public development session key only on the embedded database.
    public static func sessionTokens(_ variables: [String: String], database: Database) throws -> ClientTokenIssuer {
        guard variables[ClientTokenIssuer.sessionKeyVariable] != nil || database.embedded == nil else {
            return try .developmentSessions()
        }
        do {
            return try ClientTokenIssuer.sessions(environment: variables)
        } catch let error as AccessError {
            throw AppError(.invalidInput, error.message)
        }
    }

    /// The privacy KEKs from `variables` (`JOURNEYS_KEK`, `JOURNEYS_KEK_ID`, `JOURNEYS_KEK_PREVIOUS`,
    /// `JOURNEYS_SUBJECT_REF_KEY`); development keys only on the embedded database.
    public static func privacyConfiguration(_ variables: [String: String], database: Database) throws -> PrivacyConfiguration {
        guard variables[PrivacyConfiguration.Variable.activeKey] != nil || database.embedded == nil else {
            return .development()
        }
        guard variables[PrivacyConfiguration.Variable.activeKey] != nil else {
            throw AppError(.invalidInput, "\(PrivacyConfiguration.Variable.activeKey) is not set")
        }
        do {
            return try PrivacyConfiguration.fromEnvironment(variables)
        } catch let error as PrivacyError {
            throw AppError(.invalidInput, error.message)
        }
    }

    /// The webhook secret sealer from the privacy KEKs in `variables`; development keys only on the embedded database.
    public static func webhookSecretSealer(_ variables: [String: String], database: Database) throws -> WebhookSecretSealer {
        try WebhookSecretSealer(privacy: try privacyConfiguration(variables, database: database))
    }

    /// The outbound webhook follower (as the projector role) and dispatcher (as the application
    /// role) of `work` and `serve --with-workers`.
    public static func outboundWebhooks(
        _ variables: [String: String], database: Database,
        projector: PostgresClient
    ) throws -> OutboundWebhookService {
        var configuration = OutboundWebhookService.Configuration()
        configuration.dispatcher.destinations = try webhookDestinations(variables)
        do {
            configuration.dispatcher.autoDisableAfter = try WebhookDispatcher.Configuration.autoDisableAfter(
                variables[WebhookDispatcher.Configuration.autoDisableVariable])
            configuration.dispatcher.trustedCertificates = try WebhookDispatcher.Configuration.trustedCertificates(
                variables[WebhookDispatcher.Configuration.caFileVariable])
        } catch {
            throw AppError(.invalidInput, error.message)
        }
        return OutboundWebhookService(
            owner: projector, app: database.app,
            sealer: try webhookSecretSealer(variables, database: database),
            configuration: configuration)
    }

    /// Where outbound webhooks may go: every special address refused unless
    /// `JOURNEYS_WEBHOOK_ALLOW_HOSTS` names it (host names, addresses, CIDR blocks), or
    /// `JOURNEYS_WEBHOOK_TENANT_ALLOW_HOSTS` for the endpoints of that tenant's keys.
    public static func webhookDestinations(_ variables: [String: String]) throws -> WebhookDestinationPolicy {
        do {
            return try WebhookDestinationPolicy(allowList: variables[WebhookDestinationPolicy.variable] ?? "")
                .withTenants(variables[WebhookDestinationPolicy.tenantVariable] ?? "")
        } catch {
            throw AppError(.invalidInput, error.message)
        }
    }
}
