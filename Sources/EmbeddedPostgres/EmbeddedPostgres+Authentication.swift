import Foundation
import Postgres

extension EmbeddedPostgres {
    var hbaFile: String { dataDirectory + "/pg_hba.conf" }

    /// `pg_hba.conf`: every connection, socket or loopback, proves its role's password.
    static let hostBasedAuthentication = """
        # Written by journeys: no trust; every role proves its password (scram-sha-256).
        # TYPE  DATABASE     USER  ADDRESS        METHOD
        local   all          all                  scram-sha-256
        host    all          all   127.0.0.1/32   scram-sha-256
        host    all          all   ::1/128        scram-sha-256
        local   replication  all                  scram-sha-256
        host    replication  all   127.0.0.1/32   scram-sha-256
        host    replication  all   ::1/128        scram-sha-256

        """

    /// Writes ``hostBasedAuthentication`` over the cluster's `pg_hba.conf` (in place: the file
    /// keeps its owner and mode).
    func writeHostBasedAuthentication() throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: hbaFile))
        try handle.truncate(atOffset: 0)
        handle.write(Data(Self.hostBasedAuthentication.utf8))
        try handle.close()
    }

    /// The cluster folder and its socket folder are the owner's alone (0700), whoever made them.
    func restrictFolders() throws {
        for path in [root.path, socketDirectory] where FileManager.default.fileExists(atPath: path) {
            guard chmod(path, 0o700) == 0 else {
                throw EmbeddedPostgresError(.directoryNotUsable, "cannot make \(path) private (chmod 0700)")
            }
        }
    }

    /// A cluster made before passwords (`trust` in `pg_hba.conf`): while trust still lets the
    /// superuser in, gives every existing role its generated password, then replaces the file and
    /// reloads. A no-op on a cluster without `trust`.
    func closeTrustAuthentication(bin: String) throws {
        guard let text = try? String(contentsOfFile: hbaFile, encoding: .utf8) else { return }
        let trusting = text.split(separator: "\n").contains { line in
            !line.trimmingCharacters(in: .whitespaces).hasPrefix("#")
                && line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last == "trust"
        }
        guard trusting else { return }
        let trustURL = "postgresql:///postgres?host=\(socketDirectory)&port=\(try readPort())&user=\(Status.superuser)"
        let connection = try PostgresConnection.connect(try PostgresConfiguration(trustURL))
        for role in Self.roles where try connection.query(EmbeddedPostgresStatements.roleExists(role)).count > 0 {
            try connection.execute(unsafeSQL: EmbeddedPostgresStatements.setPassword(role, password: try password(for: role)))
        }
        try writeHostBasedAuthentication()
        try ShellCommand.make(bin + "/pg_ctl", ["-D", dataDirectory, "reload"], as: serverUser).check("pg_ctl reload")
        // A reload is asynchronous: wait until a password-less connection is refused.
        for _ in 0..<100 {
            guard (try? PostgresConnection.connect(try PostgresConfiguration(trustURL + "&connect_timeout=2"))) != nil else {
                return
            }
            usleep(50_000)
        }
        throw EmbeddedPostgresError(
            .commandFailed, "the cluster still trusts password-less connections after a reload of \(hbaFile)")
    }
}
