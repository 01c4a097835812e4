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
    public static func start(from primary: EmbeddedPostgres, status: EmbeddedPostgres.Status, directory: String,
                             timeout: Int = 120) throws -> EmbeddedStandby {
        let standby = EmbeddedPostgres(.init(directory: directory, database: status.database, durable: false))
        try FileManager.default.createDirectory(atPath: standby.socketDirectory, withIntermediateDirectories: true)
        // The roles' passwords travel with the data: keep the same credential files beside it.
        for file in (try? FileManager.default.contentsOfDirectory(atPath: primary.root.path)) ?? [] where file.hasPrefix("credentials") {
            try? FileManager.default.copyItem(atPath: primary.root.appendingPathComponent(file).path,
                                              toPath: standby.root.appendingPathComponent(file).path)
        }
        if let user = standby.serverUser {
            try ShellCommand(executable: "/bin/chown", arguments: ["-R", "\(user):\(user)", standby.root.path]).check("chown")
        }
        let bin = try primary.binDirectory()
        try ShellCommand.make("/usr/bin/timeout", [String(timeout), bin + "/pg_basebackup", "-D", standby.dataDirectory, "-R",
                                                   "-X", "stream", "-c", "fast", "-h", status.socketDirectory,
                                                   "-p", String(status.port), "-U", "postgres"], as: standby.serverUser)
            .check("pg_basebackup from port \(status.port)")
        try standby.writeSettings(port: try standby.readPort())
        try ShellCommand.make(bin + "/pg_ctl", ["-D", standby.dataDirectory, "-l", standby.logFile, "-w", "-t", "60", "start"],
                              as: standby.serverUser).check("pg_ctl start of the standby (see \(standby.logFile))")
        return EmbeddedStandby(cluster: standby)
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
