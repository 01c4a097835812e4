import AccessControl
import CLI
import HTTPServer
import HumanTokenAPI
import JourneyDomain
import JourneyService
import Privacy

/// `journeys serve`: the HTTP API.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve", summary: "Run the HTTP API until interrupted (graceful shutdown on SIGINT/SIGTERM).",
        discussion: """
            Serves /healthz, /readyz, /metrics, /openapi.json and /v1/journeys. Unico clients come from \
            UNICO_UAT_* / UNICO_PROD_* (SERVICE_ACCOUNT, TENANT, PRIVATE_KEY_FILE, ...); sealing keys from \
            JOURNEYS_KEK and JOURNEYS_SUBJECT_REF_KEY; the client-token key from JOURNEYS_CLIENT_TOKEN_KEY; Unico \
            webhook credentials from UNICO_WEBHOOK_AUTH (basic:user:password, header:Name:value or bearer:token). \
            On the embedded database, missing keys fall back to public development keys.
            """,
        options: [
            .optional("host", valueName: "ADDR", help: "Listen address.", default: "127.0.0.1"),
            .optional("port", valueName: "P", help: "Listen port (0 picks a free one).", default: "8080"),
        ])
    let host: String
    let port: Int

    init(arguments: ParsedArguments) throws {
        host = try arguments.string("host")
        port = try arguments.int("port", in: 0...65535)
    }

    func run() async throws {
        let database = try await Database.open(AppEnvironment.current.database)
        defer { database.close() }
        var configuration = JourneyService.Configuration()
        configuration.http.host = host
        configuration.http.port = port
        let dependencies = try Self.dependencies(AppEnvironment.current.variables, database: database)
        let service = JourneyService(configuration: configuration, database: database.app, dependencies: dependencies)
        try service.start()
        AppEnvironment.current.writeLine("listening on http://\(host):\(service.port ?? port)")
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        await service.shutdown()
    }

    /// Unico clients, sealing and client-token keys from `variables`; development keys only on the embedded database.
    static func dependencies(_ variables: [String: String], database: Database) throws -> JourneyDependencies {
        let embedded = database.embedded != nil
        var unico: [Environment: HumanTokenAPIClient] = [:]
        for (environment, api) in [(Environment.uat, HumanTokenAPIEnvironment.uat), (.prod, .prod)]
        where variables.keys.contains(where: { $0.hasPrefix(api.variablePrefix) }) {
            unico[environment] = try HumanTokenAPIClient(configuration: .fromEnvironment(variables, environment: api))
        }
        if unico.isEmpty, !embedded {
            throw AppError(.invalidInput, "no Unico environment is configured: set \(HumanTokenAPIEnvironment.uat.variablePrefix)"
                + "SERVICE_ACCOUNT, ...TENANT and ...PRIVATE_KEY_FILE (or the \(HumanTokenAPIEnvironment.prod.variablePrefix) ones)")
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
        return JourneyDependencies(vault: SubjectVault(client: database.app, configuration: privacy),
                                   clientTokens: clientTokens, unico: unico)
    }
}
