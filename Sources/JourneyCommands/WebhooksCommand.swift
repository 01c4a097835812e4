import CLI
import Foundation
import JourneyApp
import OutboundWebhooks
import Privacy

/// `journeys webhooks`: the outbound webhook endpoint of each API key.
struct WebhooksCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "webhooks", summary: "Set, show and disable the webhook endpoint of an API key; list and resend deliveries.",
        discussion: """
            Each step of a journey started with a key that the key's endpoint subscribes to \
            (journey.started, attempt.capture_opened, attempt.failed, attempt.expired, attempt.replaced, journey.completed, \
            journey.abandoned; all by default) is sent as a signed Standard Webhooks POST, retried for at \
            least 72 h. Loopback, private, link-local, metadata and unspecified addresses are refused \
            (when registering an IP literal, and after resolving the host when sending) unless \
            JOURNEYS_WEBHOOK_ALLOW_HOSTS names them (host names, addresses, CIDR blocks, comma-separated). \
            Secrets are sealed under JOURNEYS_KEK (JOURNEYS_KEK_ID, JOURNEYS_SUBJECT_REF_KEY as for serve; \
            development keys on the embedded database) and shown once.
            """,
        subcommands: [
            WebhooksSet.self, WebhooksShow.self, WebhooksDisable.self, WebhooksDeliveries.self,
            WebhooksResend.self,
        ])

    /// Runs `body` with the app role's endpoint store; turns bad input and unknown keys into app errors.
    static func withStore<T: Sendable>(_ body: (WebhookEndpointStore) async throws -> T) async throws -> T {
        try await withDatabase { database in
            let variables = AppEnvironment.current.variables
            let sealer = try Wiring.webhookSecretSealer(variables, database: database)
            return try await body(
                WebhookEndpointStore(
                    client: database.app, sealer: sealer,
                    destinations: try Wiring.webhookDestinations(variables)))
        }
    }

    /// Runs `body` with the app role's delivery log; turns bad input and unknown ids into app errors.
    static func withLog<T: Sendable>(_ body: (WebhookDeliveryLog) async throws -> T) async throws -> T {
        try await withDatabase { database in try await body(WebhookDeliveryLog(client: database.app)) }
    }

    static func withDatabase<T: Sendable>(_ body: (Database) async throws -> T) async throws -> T {
        let database = try await Database.open(AppEnvironment.current.database, poolSize: 1)
        defer { database.close() }
        do {
            return try await body(database)
        } catch let error as WebhookError
            where [.invalidArgument, .invalidConfiguration, .destinationRefused].contains(error.code)
        {
            throw AppError(.invalidInput, error.message)
        } catch let error as WebhookError where error.code == .keyNotFound || error.code == .deliveryNotFound {
            throw AppError(.notFound, error.message)
        }
    }

    /// An endpoint's subscription as shown: the types, or `all`.
    static func events(_ endpoint: WebhookEndpoint) -> String {
        endpoint.eventTypes?.joined(separator: ",") ?? "all"
    }

    static func format(_ date: Date?) -> String {
        date.map { $0.formatted(.iso8601) } ?? "-"
    }
}

struct WebhooksSet: Command {
    static let configuration = CommandConfiguration(
        name: "set", summary: "Point a key's endpoint at a URL and enable it; a new secret is printed once.",
        options: [
            .required("url", valueName: "URL", help: "https URL (http only for 127.0.0.1, ::1 or localhost)."),
            .optional(
                "events", valueName: "TYPES",
                help: """
                    Comma-separated event types to receive, or 'all' (a new endpoint gets all; otherwise unchanged \
                    when omitted): \(JourneyWebhookEventType.all.map(\.rawValue).joined(separator: ", ")).
                    """),
        ],
        flags: [FlagSpec("rotate-secret", help: "Issue a new secret even if the endpoint has one.")],
        positionals: [PositionalSpec("key", help: "The API key's id (UUID) or prefix.")])
    let key: String
    let url: String
    let rotateSecret: Bool
    let events: WebhookEndpointStore.Subscription

    init(arguments: ParsedArguments) throws {
        key = try arguments.string("key")
        rotateSecret = try arguments.flag("rotate-secret")
        do {
            url = try WebhookURL.validate(try arguments.string("url"))
        } catch let error as WebhookError {
            throw AppError(.invalidInput, "--url: \(error.message)")
        }
        do {
            events = try WebhookEndpointStore.Subscription(option: try arguments.optionalString("events"))
        } catch let error as WebhookError {
            throw AppError(.invalidInput, "--\(error.message)")
        }
    }

    func run() async throws {
        let result = try await WebhooksCommand.withStore { [key, url, rotateSecret, events] store in
            let result = try await store.set(key: key, url: url, rotateSecret: rotateSecret, events: events)
            return (
                endpoint: result.endpoint, newSecret: result.newSecret, created: result.created,
                sealedWithDevelopmentKey: store.sealer.activeKeyID == PrivacyConfiguration.developmentKeyID
            )
        }
        let out = AppEnvironment.current.writeLine
        out("key:      \(result.endpoint.apiKeyID.uuidString.lowercased())")
        out("endpoint: \(result.endpoint.id.uuidString.lowercased())\(result.created ? " (new)" : "")")
        out("url:      \(result.endpoint.url)")
        out("events:   \(WebhooksCommand.events(result.endpoint))")
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
        var table = TextTable(columns: ["ENDPOINT", "URL", "EVENTS", "STATUS", "CREATED", "SECRET KEY ID"])
        for endpoint in endpoints {
            var status =
                endpoint.disabledAt.map { "disabled \(WebhooksCommand.format($0)): \(endpoint.disabledReason ?? "")" }
                ?? endpoint.failingSince.map { "enabled, failing since \(WebhooksCommand.format($0))" } ?? "enabled"
            if endpoint.keyRevoked { status = "key revoked, receives nothing; " + status }
            table.append([
                endpoint.id.uuidString.lowercased(), endpoint.url, WebhooksCommand.events(endpoint), status,
                WebhooksCommand.format(endpoint.createdAt), endpoint.secretKeyID ?? "-",
            ])
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
