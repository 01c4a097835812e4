import AccessControl
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyAPI
import JourneyDomain
import Postgres
import RateBudget

/// Where each Unico environment's client settings come from: the `UNICO_UAT_*` /
/// `UNICO_PROD_*` variables, or a JSON file given by `--unico-config` or `UNICO_CONFIG_FILE`
/// (`{"uat": {"serviceAccount": …, "tenant": …, "privateKeyFile": …}, "prod": {…}}`).
/// An environment set in both is refused rather than silently merged. Each environment's
/// `LOOKUP` (`lookup`) defaults to `none`: Unico documents no search by `clientReference`.
///
/// The file may also give a journeys tenant its own Unico settings (its own service account):
/// `{"tenants": {"acme": {"uat": {…}}}}`. Its journeys use them in the environments given there,
/// the deployment's elsewhere. Such a tenant may also give the credentials its own account's
/// webhook presents (`"webhookAuth"`, the syntax of `UNICO_WEBHOOK_AUTH`): they touch only its
/// journeys.
enum UnicoSettings {
    /// The share of the deployment's Unico rate guaranteed to each journeys tenant without Unico
    /// settings of its own (0 < share <= 1; 1: no shares). Default 0.5.
    static let tenantShareVariable = "JOURNEYS_UNICO_TENANT_SHARE"
    static let defaultTenantShare = 0.5

    /// ``tenantShareVariable``'s value; a bad one is refused naming the variable.
    static func tenantShare(_ variables: [String: String]) throws -> Double {
        guard let text = variables[tenantShareVariable], !text.isEmpty else { return defaultTenantShare }
        guard let share = Double(text), share > 0, share <= 1 else {
            throw AppError(.invalidInput, "\(tenantShareVariable) must be a number above 0 and at most 1, not \(text)")
        }
        return share
    }

    /// The variable naming the JSON file when no `--unico-config` is given.
    static let fileVariable = "UNICO_CONFIG_FILE"

    /// The configured environments; `file` (a flag) wins over `UNICO_CONFIG_FILE`.
    static func configurations(_ variables: [String: String], file: String? = nil) throws
        -> [Environment: HumanTokenAPIConfiguration]
    {
        let path = file ?? variables[fileVariable].flatMap { $0.isEmpty ? nil : $0 }
        var sections: Set<String> = []
        if let path {
            sections = try fileSections(path).subtracting([tenantsKey])
        }
        var configurations: [Environment: HumanTokenAPIConfiguration] = [:]
        for (environment, api) in [(Environment.uat, HumanTokenAPIEnvironment.uat), (.prod, .prod)] {
            let inVariables = variables.keys.contains { $0.hasPrefix(api.variablePrefix) }
            let inFile = sections.contains(api.rawValue)
            switch (inFile, inVariables) {
            case (true, true):
                throw AppError(
                    .invalidInput,
                    "\(api.rawValue.uppercased()) is configured both in \(path ?? "") and by "
                        + "\(api.variablePrefix)* variables: use one")
            case (true, false):
                configurations[environment] = try HumanTokenAPIConfiguration.load(
                    contentsOf: URL(fileURLWithPath: path ?? ""), environment: api)
            case (false, true):
                configurations[environment] = try HumanTokenAPIConfiguration.fromEnvironment(variables, environment: api)
            case (false, false):
                break
            }
        }
        if let path, configurations.isEmpty, try tenantConfigurations(file: path).isEmpty {
            throw AppError(.invalidInput, "\(path) configures no Unico environment: give it a \"uat\" or \"prod\" object")
        }
        return configurations
    }

    /// The file's key of the tenants' own settings.
    static let tenantsKey = "tenants"

    /// Each journeys tenant's own settings, by tenant name then environment (none without a file).
    /// A tenant named there must be a valid tenant name; whether it exists is not checked here.
    static func tenantConfigurations(_ variables: [String: String], file: String? = nil) throws
        -> [String: [Environment: HumanTokenAPIConfiguration]]
    {
        guard let path = file ?? variables[fileVariable].flatMap({ $0.isEmpty ? nil : $0 }) else { return [:] }
        return try tenantConfigurations(file: path)
    }

    private static func tenantConfigurations(file path: String) throws -> [String: [Environment: HumanTokenAPIConfiguration]] {
        guard let data = FileManager.default.contents(atPath: path),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let value = object[tenantsKey]
        else { return [:] }
        guard let tenants = value as? [String: Any] else {
            throw AppError(.invalidInput, "Unico configuration file \(path): \"\(tenantsKey)\" must be an object of tenant names")
        }
        var result: [String: [Environment: HumanTokenAPIConfiguration]] = [:]
        for (name, settings) in tenants {
            do {
                _ = try Tenant.validName(name)
            } catch let error as AccessError {
                throw AppError(.invalidInput, "Unico configuration file \(path): \(tenantsKey).\(name): \(error.message)")
            }
            guard let sections = settings as? [String: Any], !sections.isEmpty else {
                throw AppError(
                    .invalidInput,
                    "Unico configuration file \(path): \(tenantsKey).\(name) must be an object "
                        + "with \"uat\" and/or \"prod\"")
            }
            var environments: [Environment: HumanTokenAPIConfiguration] = [:]
            for (environment, api) in [(Environment.uat, HumanTokenAPIEnvironment.uat), (.prod, .prod)] {
                guard sections[api.rawValue] != nil else { continue }
                environments[environment] = try HumanTokenAPIConfiguration.load(
                    contentsOf: URL(fileURLWithPath: path), environment: api, under: [tenantsKey, name])
            }
            if let unknown = sections.keys.sorted().first(where: { $0 != "uat" && $0 != "prod" && $0 != webhookAuthKey }) {
                throw AppError(
                    .invalidInput,
                    "Unico configuration file \(path): \(tenantsKey).\(name).\(unknown) is not an "
                        + "environment (expected \"uat\", \"prod\" or \"\(webhookAuthKey)\")")
            }
            guard !environments.isEmpty else {
                throw AppError(
                    .invalidInput,
                    "Unico configuration file \(path): \(tenantsKey).\(name).\(webhookAuthKey) is for a "
                        + "tenant with its own Unico account: give \(tenantsKey).\(name) \"uat\" and/or \"prod\"")
            }
            result[name] = environments
        }
        return result
    }

    /// The key of a tenant's own webhook credentials in the file.
    static let webhookAuthKey = "webhookAuth"

    /// Each tenant's own Unico webhook credentials (`tenants.<name>.webhookAuth`, the syntax of
    /// `UNICO_WEBHOOK_AUTH`, `oauth2` tokens living `UNICO_WEBHOOK_TOKEN_LIFETIME` seconds), by
    /// tenant; none without a file. A malformed or weak value, or one equal to `deployment`'s or
    /// another tenant's (a call could not say whose it is), is refused naming its key path.
    static func tenantWebhookAuthentications(
        _ variables: [String: String], file: String? = nil,
        deployment: WebhookAuthenticator? = nil
    ) throws -> [String: WebhookAuthenticator] {
        guard let path = file ?? variables[fileVariable].flatMap({ $0.isEmpty ? nil : $0 }) else { return [:] }
        let owned = try tenantConfigurations(file: path)
        guard let data = FileManager.default.contents(atPath: path),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let tenants = object[tenantsKey] as? [String: Any]
        else { return [:] }
        var lifetime = WebhookTokenIssuer.defaultLifetime
        if let text = variables[WebhookAuthenticator.tokenLifetimeVariable], !text.isEmpty {
            guard let seconds = TimeInterval(text) else {
                throw AppError(.invalidInput, "\(WebhookAuthenticator.tokenLifetimeVariable) must be a number of seconds")
            }
            lifetime = seconds
        }
        var result: [String: WebhookAuthenticator] = [:]
        for name in tenants.keys.sorted() where owned[name] != nil {
            guard let value = (tenants[name] as? [String: Any])?[webhookAuthKey] else { continue }
            let key = "\(tenantsKey).\(name).\(webhookAuthKey)"
            guard let text = value as? String, !text.isEmpty else {
                throw AppError(
                    .invalidInput, "Unico configuration file \(path): \(key) must be a string such as oauth2:id:secret")
            }
            let authentication: WebhookAuthenticator
            do {
                authentication = try WebhookAuthenticator(parsing: text, tokenLifetime: lifetime, source: key)
            } catch let problem as Problem {
                throw AppError(.invalidInput, "Unico configuration file \(path): \(problem.detail ?? key + " is malformed")")
            }
            if authentication == deployment {
                throw AppError(
                    .invalidInput,
                    "Unico configuration file \(path): \(key) is the same as "
                        + "\(WebhookAuthenticator.environmentVariable): give the tenant credentials of its own")
            }
            if let other = result.first(where: { $0.value == authentication })?.key {
                throw AppError(
                    .invalidInput,
                    "Unico configuration file \(path): \(key) is the same as "
                        + "\(tenantsKey).\(other).\(webhookAuthKey): give each tenant credentials of its own")
            }
            result[name] = authentication
        }
        return result
    }

    /// A client whose own limiter runs at `share` of the tenant's rate and which shares the
    /// tenant's whole rate with every other process through `database` (`unico_rate_buckets`).
    /// Journeys tenants without Unico settings of their own each get `tenantShare` of the
    /// deployment's rate (see ``PostgresRateBudget/Configuration/tenantShare``).
    static func client(
        _ configuration: HumanTokenAPIConfiguration, share: Double, sharedWith database: PostgresClient,
        tenantShare: Double = 1
    ) throws -> HumanTokenAPIClient {
        var local = configuration
        local.rateLimit = configuration.rateLimit * share
        let budget = PostgresRateBudget(
            client: database,
            configuration: .init(
                bucket: "\(configuration.environment.rawValue.uppercased()):\(configuration.tenant)",
                rate: configuration.rateLimit,
                tenantShare: tenantShare))
        return try HumanTokenAPIClient(
            configuration: local, rateLimiter: HumanTokenRateLimiter(requestsPerSecond: local.rateLimit, shared: budget))
    }

    /// The top-level keys of the file, checked to be known environments.
    private static func fileSections(_ path: String) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AppError(.invalidInput, "Unico configuration file \(path) cannot be read")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw AppError(.invalidInput, "Unico configuration file \(path) is not a JSON object")
        }
        let known = Set([HumanTokenAPIEnvironment.uat, .prod].map(\.rawValue) + [tenantsKey])
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw AppError(
                .invalidInput,
                "Unico configuration file \(path): \"\(unknown)\" is not an environment "
                    + "(expected \"uat\", \"prod\" or \"\(tenantsKey)\")")
        }
        return Set(object.keys)
    }
}
