import CLI
import Cryptography
import Foundation
@testable import JourneyApp
import JourneyCommands
import JourneyTesting
import Testing

/// `journeys work` and `serve --with-workers` options, run in-process.
@Suite(.serialized) struct WorkCommandTests {
    func journeys(_ arguments: [String], database: TestDatabase, extra: [String: String] = [:]) async
        -> (code: Int32, output: String, error: String)
    {
        var variables = extra
        variables["DATABASE_URL"] = database.appURL
        variables["DATABASE_ADMIN_URL"] = database.ownerURL
        variables["DATABASE_PROJECTOR_URL"] = database.projectorURL
        return await JourneysCommand.run(arguments, variables: variables)
    }

    @Test func aWorkerProcessTakesItsShareOfEachConfiguredUnicoRate() async throws {
        try await TestDatabase.with { db in
            let key = try UnicoSettingsFixture()
            let configurations = try UnicoSettings.configurations(
                key.variables(prefix: "UNICO_UAT_", ["RATE_LIMIT": "8"]).merging(key.variables(prefix: "UNICO_PROD_")) { $1 }
                    .merging(["OTHER": "x"]) { $1 })
            let uat = try UnicoSettings.client(try #require(configurations[.uat]), share: 0.5, sharedWith: db.app)
            let prod = try UnicoSettings.client(try #require(configurations[.prod]), share: 0.5, sharedWith: db.app)
            #expect(uat.configuration.rateLimit == 4)
            #expect(prod.configuration.rateLimit == 5)  // half of the default 10/s
            #expect(throws: (any Error).self) {
                try UnicoSettings.configurations(key.variables(prefix: "UNICO_UAT_", ["RATE_LIMIT": "fast"]))
            }
        }
    }

    /// `--unico-config FILE` (or UNICO_CONFIG_FILE): one JSON object per environment, a relative
    /// key file resolved next to it; an environment set both there and by variables is refused.
    @Test func unicoSettingsComeFromAFileOrVariablesButNotBoth() throws {
        let key = try UnicoSettingsFixture()
        let file = key.directory.appendingPathComponent("unico.json")
        try Data(#"{"prod": {"serviceAccount": "svc", "tenant": "acme", "privateKeyFile": "key.pem", "rateLimit": 6}}"#.utf8)
            .write(to: file)
        let fromFile = try UnicoSettings.configurations(["UNICO_CONFIG_FILE": file.path])
        #expect(fromFile[.prod]?.issuer == "svc@acme.iam.acesso.io")
        #expect(fromFile[.prod]?.rateLimit == 6)
        #expect(fromFile[.uat] == nil)

        let both = try UnicoSettings.configurations(key.variables(prefix: "UNICO_UAT_"), file: file.path)
        #expect(both[.uat]?.tenant == "acme" && both[.prod]?.rateLimit == 6)

        let clash = #expect(throws: (any Error).self) {
            try UnicoSettings.configurations(key.variables(prefix: "UNICO_PROD_"), file: file.path)
        }
        #expect(clash.map { String(describing: $0) }?.contains("UNICO_PROD_") == true)

        for (text, named) in [
            (#"{"staging": {}}"#, "staging"), ("[1]", "not a JSON object"), ("{}", "no Unico environment"),
            (#"{"uat": {"tenant": "acme"}}"#, "uat.serviceAccount"),
        ] {
            try Data(text.utf8).write(to: file)
            let error = #expect(throws: (any Error).self) { try UnicoSettings.configurations([:], file: file.path) }
            #expect(error.map { String(describing: $0) }?.contains(named) == true, "\(text)")
        }
        #expect(throws: (any Error).self) { try UnicoSettings.configurations([:], file: "/nonexistent/unico.json") }
    }

    @Test func badWorkerSettingsExitNonZeroNamingTheSetting() async throws {
        try await TestDatabase.with { db in
            let concurrency = await journeys(["work", "--concurrency", "0"], database: db)
            #expect(concurrency.code != 0)
            #expect(concurrency.error.contains("concurrency"))
            let share = await journeys(["work", "--unico-share", "2"], database: db)
            #expect(share.code != 0)
            #expect(share.error.contains("unico-share"))
            let policy = await journeys(["work"], database: db, extra: ["JOURNEYS_RETRY_JITTER_FRACTION": "3"])
            #expect(policy.code != 0)
            #expect(policy.error.contains("JOURNEYS_RETRY_JITTER_FRACTION"))
            let serve = await journeys(["serve", "--with-workers", "--lease", "-1"], database: db)
            #expect(serve.code != 0)
            #expect(serve.error.contains("lease"))
        }
    }
}

extension WorkCommandTests {
    @Test func serveWithWorkersFollowsTheReadModelAndReconcilesOpenIntents() async throws {
        try await withWorkers(realTime: true) { h in
            let open = try await h.startWithoutCalling(at: Date().addingTimeInterval(-120))
            let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).pem")
            try h.privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: keyFile) }
            let capture = OutputCapture()
            var variables = CrashTests.childEnvironment(h, keyFile: keyFile)
            variables["UNICO_UAT_REQUEST_TIMEOUT"] = "5"
            let environment = AppEnvironment(variables: variables, writeLine: { capture.append($0) })
            let serve = Task {
                await AppEnvironment.$current.withValue(environment) {
                    await CommandLineTool.execute(
                        root: JourneysCommand.self,
                        arguments: ["serve", "--port", "0", "--with-workers", "--poll-interval", "0.1"])
                }
            }
            // The command stops either way; a hang waiting for the journey fails afterwards.
            let unsettled = await captureError {
                try await waitUntil("the serve's worker reconciles and projects the journey") {
                    guard try await h.state(open).status == .processCreated else { return false }
                    let rows = try await h.database.app.query(
                        "SELECT status FROM journey_state WHERE journey_id = \(open.rawValue)")
                    return try rows.first?.decode(0, as: String.self) == "processCreated"
                }
            }
            serve.cancel()
            let result = await serve.value
            if let unsettled { throw unsettled }
            #expect(result.exitCode == 0)
            #expect(capture.text.contains("with worker"))
            #expect(h.emulator.processes().count == 1)
        }
    }
}

/// A temporary folder with an RSA key file, and the variables naming it.
struct UnicoSettingsFixture {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unico-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(try RSAPrivateKey.generate().pemPKCS8.utf8).write(to: directory.appendingPathComponent("key.pem"))
    }

    func variables(prefix: String, _ extra: [String: String] = [:]) -> [String: String] {
        var variables = [
            prefix + "SERVICE_ACCOUNT": "svc", prefix + "TENANT": "acme",
            prefix + "PRIVATE_KEY_FILE": directory.appendingPathComponent("key.pem").path,
        ]
        for (name, value) in extra { variables[prefix + name] = value }
        return variables
    }
}
