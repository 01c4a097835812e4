import EmbeddedPostgres
import Foundation
import JourneyTesting
import Postgres
import Testing

/// The embedded cluster is safe by default: no `trust`, passwords in 0600 files, private folders.
@Suite(.serialized) struct EmbeddedSafetyTests {
    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func refused(_ url: String) async -> Bool {
        (try? PostgresConnection.connect(try PostgresConfiguration(url + "&connect_timeout=3"))) == nil
    }

    /// A cluster of its own (it rewrites pg_hba.conf), removed afterwards.
    @Test func aClusterRefusesEveryConnectionWithoutItsPasswordAndKeepsItsFilesPrivate() async throws {
        let directory = TestCluster.directory + "-safety-\(getpid())"
        let cluster = EmbeddedPostgres(.init(directory: directory, database: "journeys", durable: false))
        defer {
            try? cluster.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        let status = try cluster.start()
        #expect(try mode(directory) == 0o700)
        #expect(try mode(directory + "/run") == 0o700)
        for role in EmbeddedPostgres.roles {
            #expect(try mode(directory + "/credentials-\(role)") == 0o600, "\(role)")
        }
        let hba = try String(contentsOfFile: directory + "/data/pg_hba.conf", encoding: .utf8)
        #expect(!hba.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.hasSuffix("trust") })

        // With its password every role gets in; without it, or with a wrong one, nobody does.
        for role in EmbeddedPostgres.roles {
            _ = try PostgresConnection.connect(try PostgresConfiguration(status.url(user: role, database: "postgres")))
            #expect(await refused(status.url(user: role, database: "postgres", includePassword: false)), "\(role)")
            #expect(await refused("postgresql://\(role)@127.0.0.1:\(status.port)/postgres?password=wrong"), "\(role)")
        }
        #expect(!status.description.contains(try cluster.password(for: "postgres")))

        // Another OS user cannot even reach the socket.
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/psql") {
            let other = try ShellCommand(
                executable: "/usr/sbin/runuser",
                arguments: [
                    "-u", "nobody", "--", "/usr/bin/psql", "-w", "-c", "SELECT 1",
                    "host=\(status.socketDirectory) port=\(status.port) user=postgres dbname=postgres",
                ]
            ).run()
            #expect(other.status != 0)
            #expect(other.text.contains("Permission denied") || other.text.contains("password"), "\(other.text)")
        }

        // A cluster made before passwords (trust) is closed on its next start.
        try (hba.replacingOccurrences(of: "scram-sha-256", with: "trust"))
            .write(toFile: directory + "/data/pg_hba.conf", atomically: false, encoding: .utf8)
        try cluster.restart()
        #expect(!(await refused(status.url(user: "postgres", database: "postgres", includePassword: false))))
        let again = try cluster.start()
        #expect(await refused(again.url(user: "postgres", database: "postgres", includePassword: false)))
        _ = try PostgresConnection.connect(try PostgresConfiguration(again.url(user: EmbeddedPostgres.appRole)))
    }
}
