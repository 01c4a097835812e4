import Foundation

/// A streaming hot standby of an ``EmbeddedPostgres`` cluster in a folder of its own:
/// `pg_basebackup -R` from the primary (as the superuser over its socket, which initdb's
/// `local replication` line allows), then started on a free loopback port. Tests of
/// `REPORTS_DATABASE_URL` read from it.
public struct EmbeddedStandby: Sendable {
    /// The standby, managed like any embedded cluster (status, stop, URLs).
    public let cluster: EmbeddedPostgres

    /// Copies `primary` into `directory` and starts it as a standby; waits up to `timeout`
    /// seconds for the backup (bounded: a stuck primary fails the call, it does not hang).
    public static func start(
        from primary: EmbeddedPostgres, status: EmbeddedPostgres.Status, directory: String,
        timeout: Int = 120
    ) throws -> EmbeddedStandby {
        let standby = EmbeddedPostgres(.init(directory: directory, database: status.database, durable: false))
        try FileManager.default.createDirectory(atPath: standby.socketDirectory, withIntermediateDirectories: true)
        // The roles' passwords travel with the data: keep the same credential files beside it.
        for file in (try? FileManager.default.contentsOfDirectory(atPath: primary.root.path)) ?? []
        where file.hasPrefix("credentials") {
            try? FileManager.default.copyItem(
                atPath: primary.root.appendingPathComponent(file).path,
                toPath: standby.root.appendingPathComponent(file).path)
        }
        if let user = standby.serverUser {
            try ShellCommand(executable: "/bin/chown", arguments: ["-R", "\(user):\(user)", standby.root.path]).check("chown")
        }
        // The superuser proves its password (scram) from a passfile the standby keeps for its
        // walreceiver (`-R` writes `passfile=` into primary_conninfo); `-w` never prompts.
        let passfile = try writePassfile(
            password: try primary.password(for: EmbeddedPostgres.Status.superuser),
            into: standby)
        let bin = try primary.binDirectory()
        try ShellCommand.make(
            "/usr/bin/env",
            [
                "PGPASSFILE=" + passfile, "/usr/bin/timeout", "-k", "5", String(timeout),
                bin + "/pg_basebackup", "-D", standby.dataDirectory, "-R", "-w",
                "-X", "stream", "-c", "fast", "-h", status.socketDirectory,
                "-p", String(status.port), "-U", EmbeddedPostgres.Status.superuser,
            ],
            as: standby.serverUser
        )
        .check("pg_basebackup from port \(status.port)")
        try standby.writeSettings(port: try standby.readPort())
        try ShellCommand.make(
            bin + "/pg_ctl", ["-D", standby.dataDirectory, "-l", standby.logFile, "-w", "-t", "60", "start"],
            as: standby.serverUser
        ).check("pg_ctl start of the standby (see \(standby.logFile))")
        return EmbeddedStandby(cluster: standby)
    }

    /// `<standby>/pgpass` (mode 0600, owned by the server user): the superuser's password for any
    /// host, port and database of the primary.
    private static func writePassfile(password: String, into standby: EmbeddedPostgres) throws -> String {
        let path = standby.root.appendingPathComponent("pgpass").path
        unlink(path)
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { throw EmbeddedPostgresError(.directoryNotUsable, "cannot create \(path)") }
        let line = "*:*:*:\(EmbeddedPostgres.Status.superuser):\(password)\n"
        let written = line.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        guard written == line.utf8.count else { throw EmbeddedPostgresError(.directoryNotUsable, "cannot write \(path)") }
        if let user = standby.serverUser {
            try ShellCommand(executable: "/bin/chown", arguments: ["\(user):\(user)", path]).check("chown")
        }
        return path
    }

    /// Where the standby answers.
    public func status() throws -> EmbeddedPostgres.Status {
        guard let status = try cluster.status() else {
            throw EmbeddedPostgresError(.notRunning, "the standby in \(cluster.configuration.directory) was never created")
        }
        return status
    }

    /// Stops the standby (fast shutdown).
    public func stop() throws { try cluster.stop() }
}
