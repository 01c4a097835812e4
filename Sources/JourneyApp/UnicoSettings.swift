import Foundation
import HumanTokenAPI
import JourneyDomain
import Postgres
import RateBudget

/// Where each Unico environment's client settings come from: the `UNICO_UAT_*` /
/// `UNICO_PROD_*` variables, or a JSON file given by `--unico-config` or `UNICO_CONFIG_FILE`
/// (`{"uat": {"serviceAccount": …, "tenant": …, "privateKeyFile": …}, "prod": {…}}`).
/// An environment set in both is refused rather than silently merged.
enum UnicoSettings {
    /// The variable naming the JSON file when no `--unico-config` is given.
    static let fileVariable = "UNICO_CONFIG_FILE"

    /// The configured environments; `file` (a flag) wins over `UNICO_CONFIG_FILE`.
    static func configurations(_ variables: [String: String], file: String? = nil) throws
        -> [Environment: HumanTokenAPIConfiguration] {
        let path = file ?? variables[fileVariable].flatMap { $0.isEmpty ? nil : $0 }
        var sections: Set<String> = []
        if let path {
            sections = try fileSections(path)
        }
        var configurations: [Environment: HumanTokenAPIConfiguration] = [:]
        for (environment, api) in [(Environment.uat, HumanTokenAPIEnvironment.uat), (.prod, .prod)] {
            let inVariables = variables.keys.contains { $0.hasPrefix(api.variablePrefix) }
            let inFile = sections.contains(api.rawValue)
            switch (inFile, inVariables) {
            case (true, true):
                throw AppError(.invalidInput, "\(api.rawValue.uppercased()) is configured both in \(path ?? "") and by "
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
        if path != nil, configurations.isEmpty {
            throw AppError(.invalidInput, "\(path ?? "") configures no Unico environment: give it a \"uat\" or \"prod\" object")
        }
        return configurations
    }

    /// A client whose own limiter runs at `share` of the tenant's rate and which shares the
    /// tenant's whole rate with every other process through `database` (`unico_rate_buckets`).
    static func client(_ configuration: HumanTokenAPIConfiguration, share: Double, sharedWith database: PostgresClient) throws
        -> HumanTokenAPIClient {
        var local = configuration
        local.rateLimit = configuration.rateLimit * share
        let budget = PostgresRateBudget(client: database, configuration: .init(
            bucket: "\(configuration.environment.rawValue.uppercased()):\(configuration.tenant)", rate: configuration.rateLimit))
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
        let known = Set([HumanTokenAPIEnvironment.uat, .prod].map(\.rawValue))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw AppError(.invalidInput, "Unico configuration file \(path): \"\(unknown)\" is not an environment "
                + "(expected \"uat\" or \"prod\")")
        }
        return Set(object.keys)
    }
}
