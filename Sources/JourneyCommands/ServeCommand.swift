import CLI
import HTTPServer
import JourneyAPI
import JourneyApp
import Workers

/// `journeys serve`: the HTTP API.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "serve", summary: "Run the HTTP API until interrupted (graceful shutdown on SIGINT/SIGTERM).",
        discussion: """
            Serves /healthz, /readyz, /metrics, /openapi.json, /v1/journeys, /v1/webhooks/unico, \
            /v1/reports/NAME and /dashboard. Unico clients come from \
            UNICO_UAT_* / UNICO_PROD_* (SERVICE_ACCOUNT, TENANT, PRIVATE_KEY_FILE, ...) or from the JSON file of \
            --unico-config (or UNICO_CONFIG_FILE); their LOOKUP (lookup in the file) defaults to none, as Unico \
            documents no search by clientReference (search: only for an account that has it, or the emulator); \
            sealing keys from \
            JOURNEYS_KEK and JOURNEYS_SUBJECT_REF_KEY; the client-token key from JOURNEYS_CLIENT_TOKEN_KEY (older ones, still verifying, from \
            JOURNEYS_CLIENT_TOKEN_KEYS_PREVIOUS); the dashboard session key from JOURNEYS_SESSION_KEY (older ones from \
            JOURNEYS_SESSION_KEYS_PREVIOUS); Unico \
            webhook credentials from UNICO_WEBHOOK_AUTH (basic:user:password, header:Name:value or bearer:token); \
            with JOURNEYS_METRICS_TOKEN set, /metrics needs Authorization: Bearer with it. \
            On the embedded database, missing keys fall back to public development keys: serve then logs a \
            warning, /readyz reports developmentKeys: true, and a --host beyond loopback is refused. The retry policy \
            frozen into new journeys comes from JOURNEYS_RETRY_* (INITIAL_INTERVAL, BACKOFF_COEFFICIENT, \
            MAXIMUM_INTERVAL, MAXIMUM_ATTEMPTS, JITTER_FRACTION, NON_RETRYABLE_CODES). Also follows the log \
            into journey_state as the journeys_projector role (DATABASE_PROJECTOR_URL, required with DATABASE_URL); \
            with --with-workers, runs the workers of `journeys work` too (and the outbound webhooks to the company, and \
            the retention policy of `journeys retention` every JOURNEYS_RETENTION_INTERVAL seconds unless JOURNEYS_RETENTION=off).
            """,
        options: [
            .optional("host", valueName: "ADDR", help: "Listen address.", default: "127.0.0.1"),
            .optional("port", valueName: "P", help: "Listen port (0 picks a free one).", default: "8080"),
            .optional(
                "max-connections-per-address", valueName: "N",
                help:
                    "Simultaneous connections one client (IPv4 address or IPv6 /64) may hold (0: no limit; raise it behind a load balancer).",
                default: "256"),
            .optional(
                "request-head-timeout", valueName: "S",
                help: "Seconds a client has to send a whole request head before the connection is cut (0: off).",
                default: "10"),
            .optional(
                "request-body-timeout", valueName: "S",
                help:
                    "Seconds a client has to send a whole request body once its head arrived before the connection is cut (0: off).",
                default: "30"),
            unicoConfigOption,
            .optional("concurrency", valueName: "N", help: "With --with-workers: items performed at once.", default: "8"),
            .optional("batch-size", valueName: "N", help: "With --with-workers: items claimed per poll.", default: "50"),
            .optional("poll-interval", valueName: "S", help: "With --with-workers: seconds between idle polls.", default: "2"),
            .optional("lease", valueName: "S", help: "With --with-workers: seconds a claim holds.", default: "60"),
        ],
        flags: [
            FlagSpec(
                "with-workers",
                help: "Also run the workers (expiry, retries, reconciliation, results, outbound webhooks).")
        ])
    let host: String
    let port: Int
    let connectionsPerAddress: Int
    let headTimeout: Int
    let bodyTimeout: Int
    let workers: WorkerService.Configuration?
    let unicoConfig: String?

    /// `--unico-config`, shared with `work`.
    static let unicoConfigOption = OptionSpec.optional(
        "unico-config", valueName: "FILE",
        help: "JSON file of Unico client settings per environment ({\"uat\": {\"serviceAccount\", \"tenant\", "
            + "\"privateKeyFile\", ...}}); default UNICO_CONFIG_FILE, else the UNICO_UAT_* / UNICO_PROD_* variables.")

    init(arguments: ParsedArguments) throws {
        host = try arguments.string("host")
        unicoConfig = try arguments.optionalString("unico-config")
        port = try arguments.int("port", in: 0...65535)
        connectionsPerAddress = try arguments.int("max-connections-per-address", in: 0...1_000_000)
        headTimeout = try arguments.int("request-head-timeout", in: 0...3600)
        bodyTimeout = try arguments.int("request-body-timeout", in: 0...3600)
        workers = try arguments.flag("with-workers") ? try WorkCommand.workerConfiguration(arguments) : nil
    }

    func run() async throws {
        var configuration = try AppConfiguration(AppEnvironment.current.variables, unicoConfig: unicoConfig)
        configuration.server.http.host = host
        configuration.server.http.port = port
        configuration.server.http.connectionLimitPerAddress = connectionsPerAddress
        configuration.server.http.requestHeadTimeout = .seconds(headTimeout)
        configuration.server.http.requestBodyTimeout = .seconds(bodyTimeout)
        configuration.workers = workers
        configuration.logSink = AppEnvironment.current.logSink
        let database = try await Database.open(configuration.database, poolSize: 8 + (workers?.concurrency ?? 0))
        defer { database.close() }
        try await JourneyApp.serve(configuration, database: database, writeLine: AppEnvironment.current.writeLine)
    }
}
