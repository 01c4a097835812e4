import Foundation
import Testing
import UnicoEmulator

@Suite("Fault script and fault plan")
struct FaultTests {
    static let busy = FaultScript(
        latencyMs: .init(min: 0, max: 30),
        routes: [
            "createProcess": .init(serverErrorRate: 0.3, rateLimitRate: 0.2, lostResponseRate: 0.2),
            "*": .init(serverErrorRate: 0.1),
        ],
        webhook: .init(dropRate: 0.2, duplicateRate: 0.3, delayMs: .init(min: 0, max: 100), reorderRate: 0.25))

    static func requestSequence(_ plan: FaultPlan, _ route: FaultScript.Route, count: Int = 200) -> [FaultPlan.RequestFault] {
        (0..<count).map { _ in plan.requestFault(for: route) }
    }

    @Test func theSameSeedGivesTheSameDecisions() {
        let a = FaultPlan(script: Self.busy, seed: 42)
        let b = FaultPlan(script: Self.busy, seed: 42)
        #expect(Self.requestSequence(a, .createProcess) == Self.requestSequence(b, .createProcess))
        #expect((0..<100).map { _ in a.webhookFault() } == (0..<100).map { _ in b.webhookFault() })
        let c = FaultPlan(script: Self.busy, seed: 43)
        #expect(
            Self.requestSequence(FaultPlan(script: Self.busy, seed: 42), .createProcess)
                != Self.requestSequence(c, .createProcess))
    }

    @Test func eachRouteHasItsOwnStream() {
        let quiet = FaultPlan(script: Self.busy, seed: 7)
        let noisy = FaultPlan(script: Self.busy, seed: 7)
        var interleaved: [FaultPlan.RequestFault] = []
        for _ in 0..<200 {
            _ = noisy.requestFault(for: .getProcess)
            _ = noisy.webhookFault()
            interleaved.append(noisy.requestFault(for: .createProcess))
        }
        #expect(Self.requestSequence(quiet, .createProcess) == interleaved)
    }

    @Test func ratesAreHonouredRoughlyAndExtremesExactly() {
        let decisions = Self.requestSequence(FaultPlan(script: Self.busy, seed: 1), .createProcess, count: 4000)
        let errors = decisions.filter { $0.action == .serverError }.count
        let limited = decisions.filter { $0.action == .rateLimited(retryAfterSeconds: 1) }.count
        #expect((1000...1400).contains(errors), "about 30%: \(errors)")
        #expect((600...1000).contains(limited), "about 20%: \(limited)")
        #expect(decisions.allSatisfy { (0...30).contains($0.latencyMilliseconds) })
        #expect(Set(decisions.map(\.latencyMilliseconds)).count > 20)

        let wildcard = Self.requestSequence(FaultPlan(script: Self.busy, seed: 1), .token, count: 2000)
        #expect(wildcard.contains { $0.action == .serverError }, "the * entry applies to other routes")

        let never = FaultPlan(script: .none, seed: 9)
        #expect(Self.requestSequence(never, .createProcess).allSatisfy { $0 == .init(latencyMilliseconds: 0, action: .none) })
        let always = FaultPlan(script: FaultScript(routes: ["getProcess": .init(serverErrorRate: 1)]), seed: 9)
        #expect(Self.requestSequence(always, .getProcess).allSatisfy { $0.action == .serverError })
    }

    @Test func theEmulatorReplaysTheSameFaultsForTheSameSeed() async throws {
        let script = FaultScript(routes: ["createProcess": .init(serverErrorRate: 0.4, rateLimitRate: 0.2, retryAfterSeconds: 3)])
        func statuses(seed: UInt64) async throws -> [Int] {
            try await withEmulator({
                $0.faultScript = script; $0.seed = seed
            }) { fixture in
                let token = try await fixture.accessToken()
                var statuses: [Int] = []
                for _ in 0..<24 {
                    let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
                    statuses.append(reply.status)
                    if reply.status == 429 {
                        #expect(reply.header("Retry-After") == "3")
                        #expect(try reply.apiError().code == 8)
                    }
                    if reply.status == 500 { #expect(try reply.apiError().code == 99999) }
                }
                #expect(fixture.emulator.processes().count == statuses.filter { $0 == 200 }.count)
                return statuses
            }
        }
        let first = try await statuses(seed: 2024)
        #expect(Set(first) == [200, 429, 500])
        #expect(try await statuses(seed: 2024) == first)
    }

    @Test func aLostResponseStillCreatesTheProcess() async throws {
        let script = FaultScript(routes: ["createProcess": .init(lostResponseRate: 1)])
        try await withEmulator({ $0.faultScript = script }) { fixture in
            let token = try await fixture.accessToken()
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
            #expect(reply.status == 502)
            #expect(fixture.emulator.processes().count == 1, "no idempotency: a retry would create a second process")
        }
    }

    @Test func latencyDelaysTheAnswer() async throws {
        try await withEmulator({ $0.faultScript.latencyMs = .init(150) }) { fixture in
            let clock = ContinuousClock()
            let start = clock.now
            let reply = try await fixture.client.send("GET", "/processes/x")
            #expect(reply.status == 401)
            #expect(clock.now - start >= .milliseconds(150))
        }
    }

    @Test func clockOffsetShiftsEveryTimestamp() async throws {
        try await withEmulator({ $0.faultScript.clockOffsetSeconds = 1800 }) { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            #expect(process["createdAt"] as? String == "2026-01-01T00:30:00.000Z")
        }
    }

    @Test func clockOffsetExpiresAssertionsSignedByAnHonestClock() async throws {
        try await withEmulator({ $0.faultScript.clockOffsetSeconds = 3601 }) { fixture in
            let assertion = try TestKeys.uat.assertion(issuedAt: fixture.clock.now())
            let reply = try await TokenEndpointTests.exchange(fixture, assertion)
            #expect(try reply.tokenErrorCode() == "1.2.4")
        }
    }

    @Test func loadsAScriptFromAJSONFile() throws {
        let json = """
            {
              "latencyMs": 25,
              "routes": {"createProcess": {"serverErrorRate": 0.5, "latencyMs": {"min": 1, "max": 9}}},
              "tokenEntryDisabled": ["PROD"],
              "webhook": {"duplicateRate": 1, "delayMs": {"min": 5, "max": 10}},
              "clockOffsetSeconds": -30
            }
            """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let script = try FaultScript.load(contentsOf: url)
        #expect(script.latencyMs == .init(25))
        #expect(script.routes["createProcess"]?.serverErrorRate == 0.5)
        #expect(script.routes["createProcess"]?.latencyMs == .init(min: 1, max: 9))
        #expect(script.routes["createProcess"]?.retryAfterSeconds == 1)
        #expect(script.tokenEntryDisabled == [.prod])
        #expect(script.webhook == .init(duplicateRate: 1, delayMs: .init(min: 5, max: 10)))
        #expect(script.clockOffsetSeconds == -30)

        let configuration = try UnicoEmulator.Configuration(
            port: 0, faultsFile: url.path, seed: 5, serviceAccounts: [TestKeys.uat.account])
        #expect(configuration.faultScript == script)
        #expect(configuration.seed == 5)
    }

    @Test(arguments: [
        #"{"routes": {"createProcess": {"serverErrorRate": 1.5}}}"#,
        #"{"routes": {"deleteEverything": {"serverErrorRate": 0.1}}}"#,
        #"{"latencyMs": {"min": 10, "max": 5}}"#,
        #"{"webhook": {"dropRate": -0.1}}"#,
        #"{"tokenEntryDisabled": ["STAGING"]}"#,
        #"not json"#,
    ])
    func refusesInvalidScripts(_ json: String) {
        do throws(EmulatorError) {
            _ = try FaultScript.decode(Data(json.utf8))
            Issue.record("accepted an invalid script")
        } catch {
            #expect(error.code == .invalidFaultScript)
        }
    }

    @Test func refusesAMissingScriptFile() {
        #expect(throws: EmulatorError.self) {
            try UnicoEmulator.Configuration(port: 0, faultsFile: "/nonexistent/faults.json", seed: 0, serviceAccounts: [])
        }
    }
}
