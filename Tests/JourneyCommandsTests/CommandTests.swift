import CLI
import EventStore
import Foundation
import JourneyApp
import JourneyCommands
import JourneyTesting
import Postgres
import Testing

/// Runs `journeys` in-process against a test database; returns exit code, output and errors.
func journeys(_ arguments: [String], database: TestDatabase? = nil, extra: [String: String] = [:]) async
    -> (code: Int32, output: String, error: String)
{
    var variables = extra
    if let database {
        variables["DATABASE_URL"] = database.appURL
        variables["DATABASE_ADMIN_URL"] = database.ownerURL
        variables["DATABASE_PROJECTOR_URL"] = database.projectorURL
    }
    return await JourneysCommand.run(arguments, variables: variables)
}

@Suite struct CommandTests {
    @Test func commandTreeIsWellDeclared() {
        #expect(CommandConfiguration.problems(inTree: JourneysCommand.self).isEmpty)
    }

    @Test func everyCommandHasHelp() async {
        for path in [
            ["--help"], ["db", "start", "--help"], ["events", "append", "--help"], ["events", "tail", "-h"],
            ["audit", "verify", "--help"], ["bench", "--help"], ["migrate", "--help"], ["help", "events"],
        ] {
            let result = await journeys(path)
            #expect(result.code == 0, "\(path)")
            #expect(result.output.contains("Usage:"), "\(path)")
        }
    }

    @Test func serveAndEmulatorHelpSayTheLookupDefaults() async {
        let serve = await journeys(["serve", "--help"])
        let text = serve.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("LOOKUP (lookup in the file) defaults to none"), "\(text)")
        let emulator = await journeys(["emulator", "--help"])
        let emulatorText = emulator.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(emulatorText.contains("LOOKUP=search"), "\(emulatorText)")
    }

    @Test func workAndDemoHelpSayWhatTheWorkersAndTheDemoDo() async {
        let work = await journeys(["work", "--help"])
        #expect(work.code == 0)
        let text = work.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("absent-user abandonment"), "\(text)")
        #expect(text.contains("JOURNEYS_RETRY_ABANDON_AFTER") && text.contains("userAbsent"), "\(text)")
        #expect(text.contains("only when the app asks for a token"), "\(text)")
        let demo = await journeys(["demo", "--help"])
        let demoText = demo.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for scenario in ["absent user", "late approval", "closed camera, came back", "Unico processes"] {
            #expect(demoText.contains(scenario), "\(scenario)")
        }
    }

    @Test func appendReadAndTailRoundTrip() async throws {
        try await TestDatabase.with { db in
            let id = UUID.v7().uuidString.lowercased()
            let appended = await journeys(
                [
                    "events", "append", "--stream", "journey-a", "--type", "JourneyStarted",
                    "--data", #"{"env":"UAT"}"#, "--expected-version", "no-stream", "--id", id,
                ], database: db)
            #expect(appended.code == 0, "\(appended.error)")
            #expect(appended.output.contains(#""streamVersion":1"#))
            let retried = await journeys(
                [
                    "events", "append", "--stream", "journey-a", "--type", "JourneyStarted",
                    "--data", #"{"env":"UAT"}"#, "--expected-version", "no-stream", "--id", id,
                ], database: db)
            #expect(retried.code == 0)
            #expect(retried.output == appended.output)
            let conflict = await journeys(
                [
                    "events", "append", "--stream", "journey-a", "--type", "TokenIssued", "--data", "{}",
                    "--expected-version", "no-stream",
                ], database: db)
            #expect(conflict.code == 1)
            #expect(conflict.error.contains("wrong_expected_version"))

            let read = await journeys(["events", "read", "--stream", "journey-a"], database: db)
            #expect(read.code == 0)
            let lines = read.output.split(separator: "\n")
            #expect(lines.count == 1)
            let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
            #expect(object?["id"] as? String == id)
            #expect((object?["data"] as? [String: Any])?["env"] as? String == "UAT")
            #expect((object?["hash"] as? String)?.count == 64)

            _ = await journeys(["events", "append", "--stream", "other-b", "--type", "X", "--data", "[1]"], database: db)
            let tail = try await waitFor("both events readable by the tail") {
                let tail = await journeys(["events", "tail"], database: db)
                return tail.output.split(separator: "\n").count >= 2 ? tail : nil
            }
            #expect(tail.output.split(separator: "\n").count == 2)
            let position = try #require(object?["position"] as? Int)
            let after = await journeys(["events", "tail", "--after", String(position)], database: db)
            #expect(after.output.contains("other-b") && !after.output.contains("journey-a"))
        }
    }

    @Test func badInputIsRefusedWithNothingWritten() async throws {
        try await TestDatabase.with { db throws in
            let cases: [([String], Int32, String)] = [
                (["events", "append", "--stream", "s", "--type", "T", "--data", "{not json"], 64, "--data is not valid JSON"),
                (
                    ["events", "append", "--stream", "s", "--type", "T", "--data", "{}", "--expected-version", "soon"], 64,
                    "--expected-version"
                ),
                (["events", "append", "--stream", "s", "--type", "T", "--data", "{}", "--id", "nope"], 64, "--id"),
                (["events", "append", "--stream", "s", "--data", "{}"], 64, "--type"),
                (["events", "append", "--stream", "", "--type", "T", "--data", "{}"], 64, "--stream"),
                (["events", "apend"], 64, "did you mean 'append'"),
                (["events", "read", "--stream", "missing"], 1, "does not exist"),
                (["events", "tail", "--after", "999"], 1, "no event at position 999"),
            ]
            for (arguments, code, message) in cases {
                let result = await journeys(arguments, database: db)
                #expect(result.code == code, "\(arguments)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            }
            #expect(try await db.app.query("SELECT count(*) FROM events").first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func unreachableOrMalformedDatabasesFailClearly() async {
        let unreachable = await journeys(
            ["events", "tail"], extra: ["DATABASE_URL": "postgresql://journeys_app@127.0.0.1:1/x?connect_timeout=2"])
        #expect(unreachable.code == 1)
        #expect(unreachable.error.contains("could not connect"))
        let malformed = await journeys(["events", "tail"], extra: ["DATABASE_URL": "postgresql://u@h/db?bogus=1"])
        #expect(malformed.code == 1)
        #expect(malformed.error.contains("invalid database URL"))
    }

    @Test func pendingMigrationsAreReportedNotSilentlyApplied() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let refused = await journeys(["events", "tail"], database: db)
            #expect(refused.code == 1)
            #expect(refused.error.contains("journeys migrate"))
            let status = await journeys(["migrate", "--status"], database: db)
            #expect(status.output.contains("pending 0001_event_store.sql"))
            let migrated = await journeys(["migrate"], database: db)
            #expect(migrated.code == 0)
            #expect(migrated.output.contains("applied 0001_event_store.sql"))
            #expect(await journeys(["events", "tail"], database: db).code == 0)
        }
    }

    @Test func auditVerifyExitsThreeAtTheBrokenLink() async throws {
        try await TestDatabase.with { db in
            let store = EventStore(client: db.app)
            // Not a journey stream: those take only the journey event types (migration 0041).
            let stream = StreamName("audit-\(UUID().uuidString.lowercased())")
            for n in 1...3 {
                try await store.append(
                    [NewEvent(type: "Step", data: JSONB(text: #"{"n": \#(n)}"#))], to: stream,
                    expectedVersion: .exact(Int64(n - 1)))
            }
            let intact = await journeys(["audit", "verify"], database: db)
            #expect(intact.code == 0)
            #expect(intact.output.contains("streams=1 events=3"))
            try await db.superuser.withConnection { connection in
                try connection.execute(unsafeSQL: "SET session_replication_role = replica")
                try connection.query(
                    "UPDATE events SET data = '{\"n\": 7}' WHERE stream_name = \(stream.rawValue) AND stream_version = 2")
            }
            let broken = await journeys(["audit", "verify"], database: db)
            #expect(broken.code == 3)
            #expect(broken.error.contains("stream \(stream) version 2"))
        }
    }

    @Test func dbStatusAndStartAreIdempotent() async throws {
        let status = try TestCluster.status()
        let directory = TestCluster.cluster.configuration.directory
        let started = await journeys(["db", "start", "--dir", directory])
        #expect(started.code == 0)
        #expect(started.output.contains("DATABASE_URL=\(status.appURL)"))
        let shown = await journeys(["db", "status", "--dir", directory])
        #expect(shown.code == 0)
        #expect(shown.output.hasPrefix("running"))
        let missing = await journeys(["db", "status", "--dir", "/tmp/journeys-no-such-cluster-\(getpid())"])
        #expect(missing.code == 3)
    }
}

@Suite struct TailFollowTests {
    @Test func tailFollowPrintsEventsAppendedAfterItStarted() async throws {
        try await TestDatabase.with { db in
            let capture = OutputCapture()
            let environment = AppEnvironment(
                variables: [
                    "DATABASE_URL": db.appURL, "DATABASE_ADMIN_URL": db.ownerURL, "DATABASE_PROJECTOR_URL": db.projectorURL,
                ], writeLine: { capture.append($0) })
            let following = Task {
                await AppEnvironment.$current.withValue(environment) {
                    await CommandLineTool.execute(root: JourneysCommand.self, arguments: ["events", "tail", "--follow"])
                }
            }
            try await db.waitForListeners(on: EventStore.notificationChannel)
            let store = EventStore(client: db.app)
            try await store.append(
                [NewEvent(type: "Late", data: JSONB(text: #"{"late": true}"#))], to: StreamName("probe-late"),
                expectedVersion: .noStream)
            try await waitUntil("the tail prints the late event") { capture.text.contains("probe-late") }
            #expect(capture.text.contains(#""type":"Late""#))
            following.cancel()
            let result = await following.value
            #expect(result.exitCode == 0 || result.exitCode == 130)
        }
    }
}
