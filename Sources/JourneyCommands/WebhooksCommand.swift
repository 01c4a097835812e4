import CLI
import Foundation
import JourneyApp
import OutboundWebhooks
import Privacy

/// `journeys webhooks`: the outbound webhook endpoint of each API key.
struct WebhooksCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "webhooks", summary: "Set, show and disable the webhook endpoint of an API key.",
        discussion: """
            When a journey started with a key completes or is abandoned, its endpoint gets a signed \
            Standard Webhooks POST (journey.completed / journey.abandoned), retried for at least 72 h. \
            Secrets are sealed under JOURNEYS_KEK (JOURNEYS_KEK_ID, JOURNEYS_SUBJECT_REF_KEY as for serve; \
            development keys on the embedded database) and shown once.
            """,
        subcommands: [WebhooksSet.self, WebhooksShow.self, WebhooksDisable.self])

    /// Runs `body` with the app role's endpoint store; turns bad input and unknown keys into app errors.
    static func withStore<T: Sendable>(_ body: (WebhookEndpointStore) async throws -> T) async throws -> T {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        do {
            let sealer = try Wiring.webhookSecretSealer(AppEnvironment.current.variables, database: database)
            return try await body(WebhookEndpointStore(client: database.app, sealer: sealer))
        } catch let error as WebhookError where error.code == .invalidArgument || error.code == .invalidConfiguration {
            throw AppError(.invalidInput, error.message)
        } catch let error as WebhookError where error.code == .keyNotFound {
            throw AppError(.notFound, error.message)
        }
    }

    static func format(_ date: Date?) -> String {
        date.map { $0.formatted(.iso8601) } ?? "-"
    }
}

struct WebhooksSet: Command {
    static let configuration = CommandConfiguration(
        name: "set", summary: "Point a key's endpoint at a URL and enable it; a new secret is printed once.",
        options: [.required("url", valueName: "URL", help: "https URL (http only for 127.0.0.1, ::1 or localhost).")],
        flags: [FlagSpec("rotate-secret", help: "Issue a new secret even if the endpoint has one.")],
        positionals: [PositionalSpec("key", help: "The API key's id (UUID) or prefix.")])
    let key: String
    let url: String
    let rotateSecret: Bool

    init(arguments: ParsedArguments) throws {
        key = try arguments.string("key")
        rotateSecret = try arguments.flag("rotate-secret")
        do {
            url = try WebhookURL.validate(try arguments.string("url"))
        } catch let error as WebhookError {
            throw AppError(.invalidInput, "--url: \(error.message)")
        }
    }

    func run() async throws {
        let result = try await WebhooksCommand.withStore { [key, url, rotateSecret] store in
            let result = try await store.set(key: key, url: url, rotateSecret: rotateSecret)
            return (endpoint: result.endpoint, newSecret: result.newSecret, created: result.created,
                    sealedWithDevelopmentKey: store.sealer.activeKeyID == PrivacyConfiguration.developmentKeyID)
        }
        let out = AppEnvironment.current.writeLine
        out("key:      \(result.endpoint.apiKeyID.uuidString.lowercased())")
        out("endpoint: \(result.endpoint.id.uuidString.lowercased())\(result.created ? " (new)" : "")")
        out("url:      \(result.endpoint.url)")
        out("status:   enabled")
        if let secret = result.newSecret {
            out("secret:   \(secret.text)")
            out("Store the secret now: it is shown only this once and cannot be recovered.")
            if result.sealedWithDevelopmentKey {
                out("note: sealed under the public development key (embedded database); set JOURNEYS_KEK for real use.")
            }
        } else {
            out("secret:   unchanged (--rotate-secret issues a new one)")
        }
    }
}

struct WebhooksShow: Command {
    static let configuration = CommandConfiguration(
        name: "show", summary: "Show a key's endpoints (never their secrets).",
        positionals: [PositionalSpec("key", help: "The API key's id (UUID) or prefix.")])
    let key: String
    init(arguments: ParsedArguments) throws { key = try arguments.string("key") }

    func run() async throws {
        let (keyID, endpoints) = try await WebhooksCommand.withStore { [key] in try await $0.endpoints(key: key) }
        let out = AppEnvironment.current.writeLine
        guard !endpoints.isEmpty else {
            return out("no webhook endpoint for API key \(keyID.uuidString.lowercased()) (set one with 'journeys webhooks set')")
        }
        var table = TextTable(columns: ["ENDPOINT", "URL", "STATUS", "CREATED", "SECRET KEY ID"])
        for endpoint in endpoints {
            let status = endpoint.disabledAt.map { "disabled \(WebhooksCommand.format($0)): \(endpoint.disabledReason ?? "")" } ?? "enabled"
            table.append([endpoint.id.uuidString.lowercased(), endpoint.url, status,
                          WebhooksCommand.format(endpoint.createdAt), endpoint.secretKeyID ?? "-"])
        }
        out(String(table.render().dropLast()))
    }
}

struct WebhooksDisable: Command {
    static let configuration = CommandConfiguration(
        name: "disable", summary: "Disable a key's endpoints; pending deliveries wait until it is set again.",
        positionals: [PositionalSpec("key", help: "The API key's id (UUID) or prefix.")])
    let key: String
    init(arguments: ParsedArguments) throws { key = try arguments.string("key") }

    func run() async throws {
        let count = try await WebhooksCommand.withStore { [key] in try await $0.disable(key: key) }
        AppEnvironment.current.writeLine("disabled \(count) endpoint(s) of API key \(key)")
    }
}
