import CLI
import Foundation
import JourneyApp
import Workers

/// `journeys work`: the background workers, until interrupted.
struct WorkCommand: Command {
    static let configuration = CommandConfiguration(
        name: "work",
        summary:
            "Run the workers until interrupted: token expiry, retries, absent-user abandonment, reconciliation, result fetching.",
        discussion: """
            The workers expire tokens (an opened capture holds its attempt for JOURNEYS_CAPTURE_GRACE, \
            default 600 s, past the expiry) and allow retries under the policy: an SDK journey's next \
            Unico process is created only when the app asks for a token (POST /v1/journeys/{id}/token); \
            for link journeys the workers create it and Unico notifies the person. A journey whose app \
            does not ask within JOURNEYS_RETRY_ABANDON_AFTER (default 1800 s) of the retry being \
            allowed is abandoned as userAbsent: an absent user costs one process. \
            Any number of workers may run, in any number of processes; they share due work through \
            work_leases (FOR UPDATE SKIP LOCKED with leases renewed by heartbeat). Also follows the \
            log into journey_state (the workers' source of due work) as the journeys_projector role \
            (DATABASE_PROJECTOR_URL, required with DATABASE_URL), unless --no-projections, and sends the \
            outbound webhooks of the journey steps each endpoint set with `journeys webhooks set` subscribes \
            to (special addresses refused unless JOURNEYS_WEBHOOK_ALLOW_HOSTS names them). Every process \
            shares each tenant's Unico \
            rate through the database (unico_rate_buckets), where background calls leave a reserve for \
            live journey starts; --unico-share caps this process's own limiter. Unico, \
            sealing and retry settings come \
            from the same variables as `serve` (JOURNEYS_RETRY_* for the retry policy of journeys the \
            service starts). Applies the retention policy (JOURNEYS_RETENTION_*, see `journeys retention`) every \
            JOURNEYS_RETENTION_INTERVAL seconds (default 3600) unless JOURNEYS_RETENTION=off. On the embedded database, missing keys fall back to public development keys, \
            with a warning at start.
            """,
        options: [
            .optional("concurrency", valueName: "N", help: "Items performed at once.", default: "8"),
            .optional("batch-size", valueName: "N", help: "Items claimed per poll.", default: "50"),
            .optional("poll-interval", valueName: "S", help: "Seconds between polls when idle.", default: "2"),
            .optional("lease", valueName: "S", help: "Seconds a claim holds before another worker may take it.", default: "60"),
            .optional(
                "unico-share", valueName: "F",
                help: "Fraction of each environment's Unico rate limit (UNICO_*_RATE_LIMIT, default 10/s) this "
                    + "process's own limiter allows; all processes together stay within the whole rate.", default: "1"),
            ServeCommand.unicoConfigOption,
        ],
        flags: [FlagSpec("no-projections", help: "Do not run the journey_state projection in this process.")])
    let configuration: WorkerService.Configuration
    let projections: Bool
    let unicoShare: Double
    let unicoConfig: String?

    init(arguments: ParsedArguments) throws {
        configuration = try Self.workerConfiguration(arguments)
        projections = try !arguments.flag("no-projections")
        unicoShare = try arguments.double("unico-share", in: 0.01...1)
        unicoConfig = try arguments.optionalString("unico-config")
    }

    /// The worker settings of `work` and `serve --with-workers`.
    static func workerConfiguration(_ arguments: ParsedArguments) throws -> WorkerService.Configuration {
        var configuration = WorkerService.Configuration()
        configuration.concurrency = try arguments.int("concurrency", in: 1...256)
        configuration.batchSize = try arguments.int("batch-size", in: 1...10_000)
        configuration.pollInterval = .milliseconds(Int(try arguments.double("poll-interval", in: 0.01...60) * 1000))
        configuration.leaseDuration = try arguments.double("lease", in: 1...3600)
        configuration.heartbeatInterval = .milliseconds(Int(configuration.leaseDuration * 1000 / 4))
        return configuration
    }

    func run() async throws {
        var configuration = try AppConfiguration(AppEnvironment.current.variables, unicoConfig: unicoConfig)
        configuration.unicoShare = unicoShare
        configuration.workers = self.configuration
        configuration.servesAPI = false
        configuration.logSink = AppEnvironment.current.logSink
        let database = try await Database.open(configuration.database, poolSize: self.configuration.concurrency + 4)
        defer { database.close() }
        try await JourneyApp.work(
            configuration, database: database, projections: projections, writeLine: AppEnvironment.current.writeLine)
    }
}
