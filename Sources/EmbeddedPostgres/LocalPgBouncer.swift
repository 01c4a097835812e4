import Foundation

/// A PgBouncer (the Debian package's `pgbouncer`) on a free loopback port in front of a
/// PostgreSQL server, its configuration in a folder of its own: tests and
/// `bench e2e --through-pgbouncer` run `serve`/`work`'s pools through it.
///
/// Clients authenticate with SCRAM against `auth_file` (the roles' plaintext passwords), and
/// PgBouncer logs in to the server as the same role with the same password. Every database name
/// is forwarded (`* = host=... port=...`).
public struct LocalPgBouncer: Sendable {
    public struct Configuration: Sendable {
        /// The server PgBouncer connects to. Default 127.0.0.1.
        public var serverHost = "127.0.0.1"
        public var serverPort: Int
        /// Role name to plaintext password, for `auth_file`.
        public var users: [String: String]
        /// `transaction` (what the service supports), `session` or `statement`. Default transaction.
        public var poolMode = "transaction"
        /// Server connections per database and role. Default 4 (small, so transactions share them).
        public var poolSize = 4
        /// The folder for the ini, auth file, log and pid file.
        public var directory: String
        /// The loopback address PgBouncer listens on. Default 127.0.0.1.
        public var listenHost = "127.0.0.1"
        /// The port PgBouncer listens on; nil picks a free one. Default nil. (With `listenHost`
        /// 127.0.0.2 and the server's port, PgBouncer sits on the server's own port number.)
        public var listenPort: Int?
        public init(serverPort: Int, users: [String: String], directory: String) {
            self.serverPort = serverPort
            self.users = users
            self.directory = directory
        }
    }

    public let configuration: Configuration
    /// The loopback port clients connect to.
    public let port: Int

    /// A `postgresql://` URL through PgBouncer for `user` to `database`.
    public func url(user: String, database: String) -> String {
        let password = configuration.users[user] ?? ""
        return "postgresql://\(user):\(password)@\(configuration.listenHost):\(port)/\(database)"
    }

    /// Writes the configuration and starts PgBouncer in the background; returns once it accepts.
    public static func start(_ configuration: Configuration) throws -> LocalPgBouncer {
        guard
            let executable = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"]
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else {
            throw EmbeddedPostgresError(
                .binariesNotFound, "pgbouncer not found; install it (apt-get install -y pgbouncer or ops/install-deps.sh)")
        }
        let directory = configuration.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = try configuration.listenPort ?? FreePort.find()
        let userList = configuration.users.sorted { $0.key < $1.key }
            .map { "\"\($0.key)\" \"\($0.value.replacingOccurrences(of: "\"", with: "\"\""))\"" }.joined(separator: "\n")
        try (userList + "\n").write(toFile: directory + "/userlist.txt", atomically: false, encoding: .utf8)
        let ini = """
            [databases]
            * = host=\(configuration.serverHost) port=\(configuration.serverPort)

            [pgbouncer]
            listen_addr = \(configuration.listenHost)
            listen_port = \(port)
            unix_socket_dir =
            auth_type = scram-sha-256
            auth_file = \(directory)/userlist.txt
            pool_mode = \(configuration.poolMode)
            default_pool_size = \(configuration.poolSize)
            max_client_conn = 500
            ignore_startup_parameters = extra_float_digits,options
            logfile = \(directory)/pgbouncer.log
            pidfile = \(directory)/pgbouncer.pid
            log_connections = 0
            log_disconnections = 0

            """
        try ini.write(toFile: directory + "/pgbouncer.ini", atomically: false, encoding: .utf8)
        // PgBouncer refuses to run as root: run it as the server's user then.
        let user = geteuid() == 0 ? "postgres" : nil
        if let user {
            try ShellCommand(executable: "/bin/chown", arguments: ["-R", "\(user):\(user)", directory]).check("chown")
        }
        chmod(directory + "/userlist.txt", 0o600)
        try ShellCommand.make(executable, ["-d", directory + "/pgbouncer.ini"], as: user)
            .check("pgbouncer (see \(directory)/pgbouncer.log)")
        let bouncer = LocalPgBouncer(configuration: configuration, port: port)
        let deadline = Date().addingTimeInterval(10)
        while !bouncer.accepts() {
            guard Date() < deadline else {
                bouncer.stop()
                throw EmbeddedPostgresError(
                    .commandFailed,
                    "pgbouncer did not listen on \(configuration.listenHost):\(port) within 10 s (see \(directory)/pgbouncer.log)"
                )
            }
            usleep(20_000)
        }
        return bouncer
    }

    /// Stops PgBouncer (SIGTERM: immediate shutdown) and waits for its port to close.
    public func stop() {
        guard let text = try? String(contentsOfFile: configuration.directory + "/pgbouncer.pid", encoding: .utf8),
            let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while accepts(), Date() < deadline { usleep(20_000) }
    }

    /// True while something accepts connections on the port.
    func accepts() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(configuration.listenHost)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
