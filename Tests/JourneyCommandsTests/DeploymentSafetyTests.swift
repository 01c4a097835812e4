import CLI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JourneyApp
import JourneyCommands
import JourneyTesting
import Testing

/// Issue 14 items 3 and 4 at the command line: the projector URL, `db roles`, development keys.
@Suite struct DeploymentSafetyTests {
    @Test func aMissingOrWrongProjectorURLIsNamed() async throws {
        try await TestDatabase.with { db throws in
            var variables = db.variables
            variables["DATABASE_PROJECTOR_URL"] = nil
            for command in [["work"], ["serve", "--port", "0"]] {
                let missing = await JourneysCommand.run(command, variables: variables)
                #expect(missing.code == 64, "\(command)")
                #expect(missing.error.contains("DATABASE_PROJECTOR_URL is not set"), "\(missing.error)")
            }
            let cases: [(String, String)] = [
                (db.ownerURL, "journeys_owner, which may write or alter the event log"),
                (db.appURL, "journeys_app, which may not write the read models"),
                (
                    "postgresql://journeys_projector:wrong@127.0.0.1:\(db.status.port)/\(db.name)",
                    "cannot connect as the projector"
                ),
                ("postgresql://journeys_projector@127.0.0.1:1/x?connect_timeout=1", "cannot connect as the projector"),
                ("postgresql://[bad", "not a usable PostgreSQL URL"),
            ]
            for (url, message) in cases {
                variables["DATABASE_PROJECTOR_URL"] = url
                let wrong = await JourneysCommand.run(["work"], variables: variables)
                #expect(wrong.code == 64)
                #expect(wrong.error.contains("DATABASE_PROJECTOR_URL"), "\(wrong.error)")
                #expect(wrong.error.contains(message), "\(wrong.error)")
                #expect(!wrong.error.contains(try db.cluster.password(for: "journeys_owner")))
            }
        }
    }

    @Test func dbRolesPrintsWhatEachRoleMayDoFromTheCatalog() async throws {
        try await TestDatabase.with { db in
            let result = await JourneysCommand.run(["db", "roles"], variables: db.variables)
            #expect(result.code == 0, "\(result.error)")
            for line in [
                "journeys_owner (login)", "journeys_app (login)", "journeys_projector (login)", "journeys_analyst (login)",
                "  table journey_state: SELECT, INSERT, UPDATE", "  table events: SELECT",
                "  view analyst_journeys: SELECT", "  calls append_events(", "  create in schema public: no",
            ] {
                #expect(result.output.contains(line), "\(line)")
            }
            let projector = result.output.components(separatedBy: "journeys_projector (")[1].components(
                separatedBy: "journeys_analyst (")[0]
            #expect(!projector.contains("SECURITY DEFINER"))
            #expect(!projector.contains("owns"))
        }
    }

    @Test func loopbackAddresses() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"] {
            #expect(DevelopmentKeys.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "10.0.0.1", "::", "example.com", "127.0.0.1.nip.io", ""] {
            #expect(!DevelopmentKeys.isLoopback(host), "\(host)")
        }
    }
}

/// `serve` on the embedded cluster's development keys: loud at start, on /readyz, and only on loopback.
@Suite(.serialized) struct DevelopmentKeysTests {
    /// The test cluster as the embedded database (its `journeys` database, dropped first so the
    /// command creates and migrates it afresh), no keys set.
    func embedded() async throws -> [String: String] {
        let status = try await TestCluster.start(slot: 0)
        try await TestCluster.cluster.dropDatabase("journeys", status: status)
        return ["JOURNEYS_PG_DIR": TestCluster.directory, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
    }

    @Test func serveRefusesANonLoopbackAddressWithDevelopmentKeys() async throws {
        let result = await JourneysCommand.run(["serve", "--host", "0.0.0.0", "--port", "0"], variables: try await embedded())
        #expect(result.code == 64)
        for variable in ["JOURNEYS_KEK", "JOURNEYS_SUBJECT_REF_KEY", "JOURNEYS_CLIENT_TOKEN_KEY"] {
            #expect(result.error.contains(variable), "\(result.error)")
        }
        #expect(result.error.contains("0.0.0.0"))
    }

    @Test func serveWarnsAtStartAndReadinessReportsDevelopmentKeys() async throws {
        let output = OutputCapture()
        let logs = OutputCapture()
        var environment = AppEnvironment(variables: try await embedded(), writeLine: { output.append($0) })
        environment.logSink = { logs.append($0) }
        let serve = Task {
            await AppEnvironment.$current.withValue(environment) {
                await CommandLineTool.execute(root: JourneysCommand.self, arguments: ["serve", "--port", "0"])
            }
        }
        defer { serve.cancel() }
        let base = try await waitFor("serve prints where it listens") {
            output.all.first { $0.hasPrefix("listening on ") }.map { String($0.dropFirst("listening on ".count)) }
        }
        let url = try #require(URL(string: base + "/readyz"), "\(output.text)")
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(body["developmentKeys"] as? Bool == true)
        let warning = try #require((body["warnings"] as? [String])?.first)
        #expect(warning.contains("JOURNEYS_KEK") && warning.contains("JOURNEYS_CLIENT_TOKEN_KEY"))
        #expect(logs.all.contains { $0.contains(#""level":"warning""#) && $0.contains(DevelopmentKeys.warning) })
        serve.cancel()
        #expect(await serve.value.exitCode == 0)
    }
}
