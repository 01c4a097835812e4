import AccessControl
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import OutboundWebhooks
import Postgres
import Privacy
import Workers

/// Reads single settings for the one-shot commands (webhooks, keys, subjects, retention) and for
/// ``AppConfiguration``. Development keys are used only on the embedded database.
public enum Wiring {
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
