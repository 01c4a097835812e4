import CLI
import EmbeddedPostgres
import JourneyApp

/// `journeys db`: the embedded PostgreSQL cluster.
struct DbCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "db", summary: "Manage the embedded PostgreSQL cluster.",
        subcommands: [DbStart.self, DbStop.self, DbRestart.self, DbStatus.self, DbRoles.self])
}

private let dirOption = OptionSpec.optional(
    "dir", valueName: "DIR", help: "Cluster folder (default: JOURNEYS_PG_DIR or .journeys/pg).")

struct DbStart: Command {
    static let configuration = CommandConfiguration(
        name: "start", summary: "Create (initdb) and start the cluster; prints DATABASE_URL.",
        discussion: """
            Idempotent. Run as root, the server runs as the unprivileged postgres user. Every role \
            authenticates with scram-sha-256 and a password generated into the folder (credentials-ROLE, \
            mode 0600); the URLs printed carry it, so treat them as secrets.
            """,
        options: [dirOption])
    let cluster: EmbeddedPostgres
    init(arguments: ParsedArguments) throws { cluster = try DbCommand.cluster(arguments) }

    func run() async throws {
        let status = try cluster.start()
        let out = AppEnvironment.current.writeLine
        out("DATABASE_URL=\(status.appURL)")
        out("DATABASE_ADMIN_URL=\(status.ownerURL)")
        out("\(ProjectorCheck.variable)=\(status.projectorURL)")
        out("# read-only analyst views: \(status.analystURL)")
    }
}

struct DbStop: Command {
    static let configuration = CommandConfiguration(
        name: "stop", summary: "Stop the cluster (no-op when stopped).", options: [dirOption])
    let cluster: EmbeddedPostgres
    init(arguments: ParsedArguments) throws { cluster = try DbCommand.cluster(arguments) }

    func run() async throws {
        try cluster.stop()
        AppEnvironment.current.writeLine("stopped")
    }
}

struct DbRestart: Command {
    static let configuration = CommandConfiguration(
        name: "restart", summary: "Restart the running cluster (fast shutdown: sessions end, transactions roll back).",
        options: [dirOption])
    let cluster: EmbeddedPostgres
    init(arguments: ParsedArguments) throws { cluster = try DbCommand.cluster(arguments) }

    func run() async throws {
        try cluster.restart()
        AppEnvironment.current.writeLine("restarted")
    }
}

struct DbStatus: Command {
    static let configuration = CommandConfiguration(
        name: "status", summary: "Show whether the cluster runs and where it answers.", options: [dirOption])
    let cluster: EmbeddedPostgres
    init(arguments: ParsedArguments) throws { cluster = try DbCommand.cluster(arguments) }

    func run() async throws {
        let out = AppEnvironment.current.writeLine
        guard let status = try cluster.status() else {
            out("not created (run 'journeys db start')")
            throw CommandFailure.exit(3)
        }
        out(status.running ? "running" : "stopped")
        out("port=\(status.port)")
        out("DATABASE_URL=\(status.appURL)")
        if !status.running { throw CommandFailure.exit(3) }
    }
}

extension DbCommand {
    static func cluster(_ arguments: ParsedArguments) throws -> EmbeddedPostgres {
        let given = try arguments.optionalString("dir")
        let directory = given ?? AppEnvironment.current.database.embeddedDirectory
        return EmbeddedPostgres(.init(directory: directory))
    }
}
