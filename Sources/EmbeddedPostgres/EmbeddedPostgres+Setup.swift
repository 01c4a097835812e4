import Foundation
import Postgres

extension EmbeddedPostgres {
    /// The folder holding `initdb`, `pg_ctl` and `pgbench`.
    public func binDirectory() throws -> String {
        if let configured = configuration.binDirectory ?? ProcessInfo.processInfo.environment["PG_BINDIR"] {
            return configured
        }
        let base = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(base)/\(version)/bin/initdb") {
            return "\(base)/\(version)/bin"
        }
        throw EmbeddedPostgresError(
            .binariesNotFound,
            "PostgreSQL server binaries not found under \(base); install postgresql (apt-get install -y postgresql) or set PG_BINDIR"
        )
    }

    /// Runs initdb into `data/` as the server user.
    func initialize(bin: String) throws {
        try FileManager.default.createDirectory(
            atPath: socketDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let superuserPassword = root.appendingPathComponent(Self.credentialsPrefix + Status.superuser).path
        _ = try password(for: Status.superuser)
        if let user = serverUser {
            try ShellCommand(executable: "/bin/chown", arguments: ["-R", "\(user):\(user)", root.path]).check("chown")
            let reach = try ShellCommand.make("/usr/bin/test", ["-w", root.path], as: user).run()
            guard reach.status == 0 else {
                throw EmbeddedPostgresError(
                    .directoryNotUsable,
                    "the \(user) user cannot write \(root.path) (a parent folder is not traversable); use --dir under /var/tmp or /tmp"
                )
            }
        }
        try ShellCommand.make(
            bin + "/initdb",
            [
                "-D", dataDirectory, "-U", "postgres", "-E", "UTF8", "--no-locale",
                "--auth=scram-sha-256", "--pwfile=\(superuserPassword)",
            ],
            as: serverUser
        ).check("initdb")
    }

    /// After `initdb`: our `pg_hba.conf`, `postgresql.conf` including `journeys.conf`, and the
    /// settings. `journeys.conf`, written last, marks it done, so a first start cut off after
    /// `initdb` (its process killed) finishes here on the next start.
    func finishSetup(port: Int) throws {
        try writeHostBasedAuthentication()
        let conf = dataDirectory + "/postgresql.conf"
        let include = "include_if_exists = 'journeys.conf'"
        if !(try String(contentsOfFile: conf, encoding: .utf8)).contains(include) {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: conf))
            handle.seekToEndOfFile()
            handle.write(Data("\n\(include)\n".utf8))
            try handle.close()
        }
        try writeSettings(port: port)
    }

    /// The cluster's port: chosen once (a free loopback port) and kept in `<dir>/port`.
    func readPort() throws -> Int {
        if let text = try? String(contentsOf: portFile, encoding: .utf8),
            let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return port
        }
        let port = try FreePort.find()
        try String(port).write(to: portFile, atomically: true, encoding: .utf8)
        return port
    }

    /// Writes `journeys.conf`, included by postgresql.conf. `jit = off`: compiling a report's plan
    /// cost more than it saved (`bench reports` at 2M journeys: SLA p95 489 ms with JIT, 61 ms without).
    /// `wal_compression = lz4`: full-page images cost less CPU than with pglz (a rebuild's index
    /// builds: 0.84–0.97 s → 0.60 s for 37k states). A cluster that is not durable (the tests', a
    /// standby's) keeps at most 256 MB of WAL instead of 4 GB: the tests run nine clusters, on
    /// tmpfs when `ops/test.sh` finds one.
    func writeSettings(port: Int) throws {
        let durable = configuration.durable ? "on" : "off"
        let settings = """
            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = '\(socketDirectory)'
            max_connections = 300
            shared_buffers = 256MB
            fsync = \(durable)
            synchronous_commit = \(durable)
            full_page_writes = \(durable)
            wal_compression = lz4
            max_wal_size = \(configuration.durable ? "4GB" : "256MB")
            checkpoint_timeout = 15min
            wal_buffers = 16MB
            log_min_messages = warning
            jit = off
            log_timezone = 'UTC'
            timezone = 'UTC'

            """
        let path = dataDirectory + "/journeys.conf"
        try settings.write(toFile: path, atomically: true, encoding: .utf8)
        if let user = serverUser {
            try ShellCommand(executable: "/bin/chown", arguments: ["\(user):\(user)", path]).check("chown")
        }
    }

    /// Creates the login roles (each with its generated password) and the application database
    /// when they are missing. Migration 0017 grants the roles their rights.
    func bootstrap(_ status: Status) throws {
        let connection = try PostgresConnection.connect(try PostgresConfiguration(status.superuserURL))
        for role in Self.roles.dropFirst() {
            let exists = try connection.query(EmbeddedPostgresStatements.roleExists(role)).count > 0
            if !exists {
                try connection.execute(unsafeSQL: EmbeddedPostgresStatements.createRole(role, password: try password(for: role)))
            }
        }
        let hasDatabase = try connection.query(EmbeddedPostgresStatements.databaseExists(status.database)).count > 0
        if !hasDatabase {
            try connection.execute(unsafeSQL: EmbeddedPostgresStatements.createDatabase(status.database, owner: Self.ownerRole))
        }
    }

    static let credentialsPrefix = "credentials-"

    /// The role's password, generated once and kept in `<dir>/credentials-<role>` (mode 0600,
    /// created exclusively so it is never readable by others, even for an instant).
    public func password(for role: String) throws -> String {
        let path = root.appendingPathComponent(Self.credentialsPrefix + role).path
        if let existing = try? String(contentsOfFile: path, encoding: .utf8), !existing.isEmpty {
            return existing.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        let bytes = [UInt8](random.readData(ofLength: 18))
        try random.close()
        let secret = bytes.map { String(format: "%02x", $0) }.joined()
        unlink(path)
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else {
            throw EmbeddedPostgresError(.directoryNotUsable, "cannot create the credentials file \(path)")
        }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let written = secret.withCString { write(fd, $0, strlen($0)) }
        guard written == secret.utf8.count else {
            throw EmbeddedPostgresError(.directoryNotUsable, "cannot write the credentials file \(path)")
        }
        if let user = serverUser, role == Status.superuser {
            // initdb (run as the server user) reads the superuser's password from this file.
            try ShellCommand(executable: "/bin/chown", arguments: ["\(user):\(user)", path]).check("chown")
        }
        return secret
    }

    /// Every role's password that the folder holds.
    func passwords() throws -> [String: String] {
        var passwords: [String: String] = [:]
        for role in Self.roles { passwords[role] = try password(for: role) }
        return passwords
    }

    /// Serializes cluster management across processes with `flock` on `<dir>/.lock`.
    func withFileLock<T>(_ body: () throws -> T) throws -> T {
        let path = root.appendingPathComponent(".lock").path
        let fd = open(path, O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else {
            throw EmbeddedPostgresError(.directoryNotUsable, "cannot open lock file \(path)")
        }
        defer { close(fd) }
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

/// Finds a free TCP port on 127.0.0.1.
enum FreePort {
    static func find() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EmbeddedPostgresError(.commandFailed, "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw EmbeddedPostgresError(.commandFailed, "could not find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
