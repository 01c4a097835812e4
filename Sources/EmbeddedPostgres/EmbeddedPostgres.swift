import Foundation
import Postgres

/// A private PostgreSQL cluster in a folder this tool owns: `initdb` on first start, `pg_ctl`
/// to start and stop, a Unix socket in `<dir>/run` and a free loopback port.
///
/// Run as root, the server runs as the unprivileged `postgres` user (initdb refuses root).
/// Roles: `postgres` (superuser), `journeys_owner` (owns the schema, runs migrations),
/// `journeys_app` (the API), `journeys_projector` (read models, checkpoints, outbox) and
/// `journeys_analyst` (read-only views). Every connection authenticates with `scram-sha-256`
/// (socket and loopback alike) with a password generated per role and kept in the folder (0600);
/// the folder and its socket folder are 0700, so no other local user reaches the server.
public struct EmbeddedPostgres: Sendable {
    public struct Configuration: Sendable {
        /// The cluster folder. Default `.journeys/pg`.
        public var directory: String = ".journeys/pg"
        /// The application database. Default `journeys`.
        public var database: String = "journeys"
        /// Durable commits. Default true; tests turn it off for speed.
        public var durable: Bool = true
        /// Folder with `initdb` and `pg_ctl`; default: the newest `/usr/lib/postgresql/*/bin` or `PG_BINDIR`.
        public var binDirectory: String?
        /// SCRAM-SHA-256 rounds of the roles' password verifiers, which each client repeats at
        /// every connection. Default PostgreSQL's 4096 (about 4 ms of a client's CPU here); the
        /// tests' throwaway clusters use 1, as their passwords guard nothing.
        public var scramIterations: Int = EmbeddedPostgres.defaultSCRAMIterations
        public init(directory: String = ".journeys/pg", database: String = "journeys", durable: Bool = true) {
            self.directory = directory
            self.database = database
            self.durable = durable
        }
    }

    /// Where the running cluster answers.
    public struct Status: Sendable, Equatable, CustomStringConvertible {
        public let running: Bool
        public let port: Int
        public let socketDirectory: String
        public let database: String
        /// Each role's password (read from the cluster folder); never logged.
        let passwords: [String: String]

        init(running: Bool, port: Int, socketDirectory: String, database: String, passwords: [String: String] = [:]) {
            self.running = running
            self.port = port
            self.socketDirectory = socketDirectory
            self.database = database
            self.passwords = passwords
        }

        /// URL for a role over the Unix socket, with its password (treat the URL as a secret).
        public func url(user: String, database: String? = nil) -> String {
            url(user: user, database: database, includePassword: true)
        }

        /// The URL, with or without the role's password (without: for display).
        public func url(user: String, database: String? = nil, includePassword: Bool) -> String {
            let db = database ?? self.database
            let secret = includePassword ? passwords[user].map { "&password=\($0)" } ?? "" : ""
            return "postgresql:///\(db)?host=\(socketDirectory)&port=\(port)&user=\(user)" + secret
        }

        /// Where the cluster answers, without passwords.
        public var description: String {
            "EmbeddedPostgres.Status(running: \(running), port: \(port), socket: \(socketDirectory), database: \(database))"
        }
        /// The application role's URL (`DATABASE_URL`).
        public var appURL: String { url(user: EmbeddedPostgres.appRole) }
        /// The schema owner's URL (`DATABASE_ADMIN_URL`, used by `migrate`).
        public var ownerURL: String { url(user: EmbeddedPostgres.ownerRole) }
        /// The projector's URL (`DATABASE_PROJECTOR_URL`: projections and outbound webhooks).
        public var projectorURL: String { url(user: EmbeddedPostgres.projectorRole) }
        /// The read-only analyst's URL (the `analyst_*` views).
        public var analystURL: String { url(user: EmbeddedPostgres.analystRole) }
        /// The superuser's URL, for operators and tests.
        public var superuserURL: String { url(user: Self.superuser, database: "postgres") }
        static let superuser = "postgres"
    }

    public static let ownerRole = "journeys_owner"
    public static let appRole = "journeys_app"
    public static let projectorRole = "journeys_projector"
    public static let analystRole = "journeys_analyst"
    /// Every login role the cluster creates, superuser first.
    public static let roles = ["postgres", ownerRole, appRole, projectorRole, analystRole]

    public let configuration: Configuration
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    var root: URL { URL(fileURLWithPath: configuration.directory).standardizedFileURL }
    var dataDirectory: String { root.appendingPathComponent("data").path }
    var socketDirectory: String { root.appendingPathComponent("run").path }
    var logFile: String { root.appendingPathComponent("postgres.log").path }
    var portFile: URL { root.appendingPathComponent("port") }
    var serverUser: String? { geteuid() == 0 ? "postgres" : nil }

    /// Creates the cluster if needed, starts it if stopped, and ensures roles and database exist.
    /// Safe to call from several processes at once.
    @discardableResult
    public func start() throws -> Status {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try restrictFolders()
        return try withFileLock {
            let bin = try binDirectory()
            let port = try readPort()
            if !FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") {
                try initialize(bin: bin)
            }
            // Settings belong to the cluster from its creation; a later start never rewrites them.
            if !FileManager.default.fileExists(atPath: dataDirectory + "/journeys.conf") {
                try finishSetup(port: port)
            }
            if !isRunning(bin: bin) {
                try ShellCommand.make(
                    bin + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "start"],
                    as: serverUser
                ).check("pg_ctl start (see \(logFile))")
            }
            try closeTrustAuthentication(bin: bin)
            let status = Status(
                running: true, port: port, socketDirectory: socketDirectory, database: configuration.database,
                passwords: try passwords())
            try bootstrap(status)
            try applySCRAMIterations(status)
            return status
        }
    }

    /// Stops the cluster (fast shutdown); a no-op when it is not running.
    public func stop() throws {
        let bin = try binDirectory()
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION"), isRunning(bin: bin) else { return }
        try ShellCommand.make(bin + "/pg_ctl", ["-D", dataDirectory, "-m", "fast", "-w", "stop"], as: serverUser)
            .check("pg_ctl stop")
    }

    /// Restarts the running cluster (tests of reconnection use this).
    public func restart() throws {
        let bin = try binDirectory()
        try ShellCommand.make(
            bin + "/pg_ctl", ["-D", dataDirectory, "-l", logFile, "-m", "fast", "-w", "restart"],
            as: serverUser
        ).check("pg_ctl restart")
    }

    /// The cluster's status, or nil when it was never created.
    public func status() throws -> Status? {
        guard FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION") else { return nil }
        let bin = try binDirectory()
        return Status(
            running: isRunning(bin: bin), port: try readPort(), socketDirectory: socketDirectory,
            database: configuration.database, passwords: try passwords())
    }

    /// Creates a database owned by `journeys_owner` (tests use one per suite).
    public func createDatabase(_ name: String, status: Status) async throws {
        let admin = try PostgresClient(url: status.superuserURL, configuration: .init(maxConnections: 1))
        defer { admin.close() }
        try await admin.withConnection { connection in
            try connection.execute(unsafeSQL: EmbeddedPostgresStatements.createDatabase(name, owner: EmbeddedPostgres.ownerRole))
        }
    }

    /// Drops a database if it exists, ending its sessions (tests drop theirs).
    public func dropDatabase(_ name: String, status: Status) async throws {
        let admin = try PostgresClient(url: status.superuserURL, configuration: .init(maxConnections: 1))
        defer { admin.close() }
        try await admin.withConnection { connection in
            try connection.execute(unsafeSQL: EmbeddedPostgresStatements.dropDatabase(name))
        }
    }

    func isRunning(bin: String) -> Bool {
        let output = try? ShellCommand.make(bin + "/pg_ctl", ["-D", dataDirectory, "status"], as: serverUser).run()
        return output?.status == 0
    }
}
