import Cryptography
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import JourneyDomain
import JourneyTesting
import Observability
import Testing
import UnicoEmulator
import Workers

/// Log lines collected from a worker.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
    /// The `message` of each JSON line.
    var messages: [String] {
        all.compactMap { ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["message"] as? String }
    }
}

@Suite struct CrashTests {
    @Test func workersRecoverFromAPostgreSQLRestartMidRun() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(min: 20, max: 80))])
        // Alone: where the outage lands among the worker's writes decides its outcomes, and a
        // busy parallel run moves it. Restartable: the cluster it stops is no other test's.
        try await withWorkers(faults: faults, alone: true, restartable: true) { h in
            var ids: [JourneyID] = []
            for _ in 0..<20 { ids.append(try await h.startWithoutCalling()) }
            h.clock.advance(by: 61)
            try await h.catchUp()
            var configuration = WorkerService.Configuration(
                pollInterval: .milliseconds(50), batchSize: 5,
                leaseDuration: 30, concurrency: 2, workerID: "restart")
            let logs = LogLines()
            configuration.logger = Logger(label: "worker", sink: { logs.append($0) })
            let worker = try h.worker(configuration)
            let run = Task { try await worker.run() }
            try await waitUntil("the worker finished 3 items") { worker.statistics.done >= 3 }
            // A restart with an outage the worker cannot miss, even in a busy parallel run: stop,
            // wait until the worker logged a failure, start again (pg_ctl off the cooperative pool).
            let cluster = h.database.cluster
            try await offPool { try cluster.stop() }
            try await waitUntil("the worker notices the outage") {
                logs.messages.contains { $0 == "work item failed" || $0 == "worker poll failed" }
            }
            _ = try await offPool { try cluster.start() }
            // Claims cut off by the restart wait for their lease; the clock moves past it.
            try await waitUntil("every intent ended") {
                var open = 0
                for id in ids where try await h.state(id).status == .creatingProcess { open += 1 }
                if open > 0 { h.clock.advance(by: 5) }
                return open == 0
            }
            run.cancel()
            _ = try? await run.value
            // The outage was logged, without personal data.
            #expect(logs.messages.contains { $0 == "work item failed" || $0 == "worker poll failed" })
            #expect(logs.all.allSatisfy { !$0.contains("12345678909") && !$0.contains("Maria") })
            // Every intent ended once, whether recorded before the restart or adopted after it. An
            // item whose process was recorded but whose completion the outage cut ends `stale` when
            // claimed again (the journey already has its process): counted, never created twice.
            let outcomes = worker.statistics.outcomes
            let created = outcomes["process_created", default: 0] + outcomes["adopted", default: 0]
            #expect(created <= ids.count, "\(outcomes)")
            #expect(created + outcomes["stale", default: 0] >= ids.count, "\(outcomes)")
            for id in ids { #expect(try await h.state(id).status == .processCreated) }
            #expect(h.emulator.processes().count == ids.count)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
        }
    }

    @Test func killingJourneysWorkRepeatedlyLosesNoJourneyAndCreatesNoSecondProcess() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("journeys")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "build the journeys executable first")
        let faults = FaultScript(routes: [FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(min: 50, max: 250))])
        try await withWorkers(faults: faults, realTime: true) { h in
            var ids: [JourneyID] = []
            for _ in 0..<20 { ids.append(try await h.startWithoutCalling(at: Date().addingTimeInterval(-120))) }
            try await h.catchUp()
            let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("workers-\(UUID().uuidString).pem")
            try h.privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: keyFile) }
            let environment = Self.childEnvironment(h, keyFile: keyFile)

            func spawn() throws -> Process {
                let process = Process()
                process.executableURL = binary
                process.arguments = ["work", "--poll-interval", "0.1", "--lease", "3", "--concurrency", "4"]
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                return process
            }
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<6 {
                let child = try spawn()
                // Kill it at a random point once it holds claims (its worker id carries its pid).
                let pattern = "%:\(child.processIdentifier):%"
                try await waitUntil("the child holds claims") {
                    let held = try await h.database.owner.query(
                        "SELECT count(*)::int FROM work_leases WHERE worker LIKE \(pattern)")
                    return try held.first?.decode(0, as: Int.self) ?? 0 > 0
                }
                // The fault's schedule, not a wait for a state: a random point of the child's work.
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &generator)))
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()
            }
            let rescued = try await h.database.owner.query("SELECT count(*)::int FROM work_leases WHERE tries > 1")
            #expect(try rescued.first?.decode(0, as: Int.self) ?? 0 > 0)
            let last = try spawn()
            // The last child stops either way; a hang waiting for the intents fails afterwards.
            let unfinished = await captureError {
                try await waitUntil("every intent ended") {
                    for id in ids where try await h.state(id).status == .creatingProcess { return false }
                    return true
                }
            }
            kill(last.processIdentifier, SIGTERM)
            // Bounded: a worker that ignores SIGTERM fails the test instead of hanging the suite.
            do {
                try await waitUntil("journeys work stops on SIGTERM", limit: .seconds(30)) { !last.isRunning }
            } catch {
                kill(last.processIdentifier, SIGKILL)
                last.waitUntilExit()
                throw error
            }
            last.waitUntilExit()
            if let unfinished { throw unfinished }
            for id in ids { #expect(try await h.state(id).status == .processCreated) }
            #expect(h.emulator.processes().count == ids.count)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
        }
    }

    /// The test's database, emulator and the development keys the harness seals with, as variables.
    static func childEnvironment(_ h: WorkersHarness, keyFile: URL) -> [String: String] {
        let url = h.emulatorURL.absoluteString
        return [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "DATABASE_URL": h.database.appURL, "DATABASE_ADMIN_URL": h.database.ownerURL,
            "DATABASE_PROJECTOR_URL": h.database.projectorURL,
            "UNICO_UAT_SERVICE_ACCOUNT": "journeys", "UNICO_UAT_TENANT": "acme",
            "UNICO_UAT_PRIVATE_KEY_FILE": keyFile.path, "UNICO_UAT_TOKEN_HOST": url, "UNICO_UAT_API_HOST": url,
            "UNICO_UAT_REQUEST_TIMEOUT": "1", "UNICO_UAT_LOOKUP": "search",  // the emulator serves the search
            "JOURNEYS_KEK": Base64URL.encode(SHA256.hash("human-token-journeys INSECURE development KEK v1")),
            "JOURNEYS_KEK_ID": "dev-insecure-1",
            "JOURNEYS_SUBJECT_REF_KEY": Base64URL.encode(
                SHA256.hash("human-token-journeys INSECURE development subject-ref key v1")),
            "JOURNEYS_CLIENT_TOKEN_KEY": Base64URL.encode(
                SHA256.hash("journeys development client-token key: public, never use in production")),
            "JOURNEYS_SESSION_KEY": Base64URL.encode(SHA256.hash("journeys test dashboard-session key")),
        ]
    }
}
