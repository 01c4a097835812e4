@testable import EmbeddedPostgres
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

    /// A first start cut off after `initdb` (the test process killed) left a cluster without our
    /// settings, which later starts ran on PostgreSQL's defaults (port 5432, /var/run's socket).
    @Test func aFirstStartCutOffAfterInitdbIsFinishedByTheNextStart() async throws {
        let directory = TestCluster.directory + "-cut-\(getpid())"
        let cluster = EmbeddedPostgres(.init(directory: directory, database: "journeys", durable: false))
        defer {
            try? cluster.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try cluster.initialize(bin: try cluster.binDirectory())
        #expect(!FileManager.default.fileExists(atPath: directory + "/data/journeys.conf"))
        let status = try cluster.start()
        #expect(status.socketDirectory == directory + "/run")
        let connection = try PostgresConnection.connect(try PostgresConfiguration(status.superuserURL))
        let port = try connection.query("SELECT current_setting('port')::int").first?.decode(0, as: Int.self)
        #expect(port == status.port)
        let conf = try String(contentsOfFile: directory + "/data/postgresql.conf", encoding: .utf8)
        #expect(conf.components(separatedBy: "include_if_exists = 'journeys.conf'").count == 2)
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

/// The verifiers a throwaway cluster stores so its clients prove passwords in one SCRAM round.
@Suite struct SCRAMVerifierTests {
    /// Expected values from Python's `hashlib.pbkdf2_hmac` and `hmac` (an independent implementation).
    @Test(arguments: [
        (
            4096,
            "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU="
        ),
        (
            1,
            "SCRAM-SHA-256$1:W22ZaJ0SNY7soEsUEjb6gQ==$bzcn5wYzlcMpEXczzDM1iuyLhni5BVbqsm82vjMHWXI=:fg/vS0Y425LcbLGWSqdzrFlRn9451QblzgpwLQYoXCI="
        ),
    ])
    func theVerifierIsPostgreSQLs(iterations: Int, expected: String) throws {
        let salt = [UInt8](try #require(Data(base64Encoded: "W22ZaJ0SNY7soEsUEjb6gQ==")))
        #expect(EmbeddedPostgres.scramVerifier(password: "pencil", salt: salt, iterations: iterations) == expected)
    }

    @Test func theTestClustersRolesProveTheirPasswordsInOneRound() async throws {
        try await TestDatabase.with { db in
            let rows = try await db.superuser.query("SELECT rolname, rolpassword FROM pg_authid WHERE rolcanlogin")
            let verifiers = try rows.map { try ($0.decode(0, as: String.self), $0.decode(1, as: String.self)) }
            #expect(Set(verifiers.map(\.0)) == Set(EmbeddedPostgres.roles))
            let oneRound = verifiers.filter { $0.1.hasPrefix("SCRAM-SHA-256$1:") }.map(\.0)
            #expect(Set(oneRound) == Set(EmbeddedPostgres.roles))
        }
    }
}
