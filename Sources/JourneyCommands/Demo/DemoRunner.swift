import AccessControl
import Foundation
import HTTPServer
import HumanTokenAPI
import JourneyApp
import JourneyDomain
import JourneyAPI
import Privacy
import Projections
import SDKLiteSimulator
import UnicoEmulator
import Workers

/// `journeys demo`: the emulator and the service in this process, simulated phones driving
/// journeys through every ending, then a summary of the journeys by state.
struct DemoRunner: Sendable {
    struct Summary: Sendable {
        var byScenario: [(label: String, status: String, attempts: Int, outcome: String, lastError: String)] = []
    }

    let database: Database
    let approvals: Int
    let log: @Sendable (String) -> Void

    func run() async throws -> Summary {
        // One manual clock for Unico and the service: moving it expires tokens on both sides.
        let clock = ManualEmulatorClock(start: Date())
        var configuration = LocalStack.Configuration(clock: clock)
        configuration.faults = FaultScript(tokenEntryDisabled: [.prod])
        configuration.retryPolicy = Self.retryPolicy
        return try await LocalStack.with(database: database, configuration: configuration) {
            try await run(on: $0, clock: clock)
        }
    }

    private func run(on stack: LocalStack, clock: ManualEmulatorClock) async throws -> Summary {
        log("Unico emulator on \(stack.unicoURL.absoluteString) (token entry disabled for PROD, to show 73303)")
        log("journey service on \(stack.api.baseURL.absoluteString)")
        let api = stack.api
        let key = stack.apiKey
        let unicoURL = stack.unicoURL

        let scenarios = DemoScenario.all(approvals: approvals)
        var results: [(DemoScenario, String?)] = []
        let now = scenarios.filter { !$0.afterExpiry }
        let later = scenarios.filter(\.afterExpiry)
        results += try await runAll(now, api: api, key: key, unicoURL: unicoURL)
        // Started now, captured after the emulator's clock passed the 5-minute token life.
        var pending: [(DemoScenario, Started)] = []
        for scenario in later { if let started = try await start(scenario, api: api, key: key) { pending.append((scenario, started)) } }
        // After expiry the workers allow a retry; a returning user's token request creates the fresh
        // process, while a user who never comes back costs one process and is abandoned after the window.
        let comesBack = DemoScenario("expired, retried, approved", .capture(.approve))
        let neverReturns = DemoScenario("expired, never came back", .capture(.approve))
        let returning = try await start(comesBack, api: api, key: key)
        let absent = try await start(neverReturns, api: api, key: key)
        clock.advance(by: 301)
        for (scenario, started) in pending {
            try await drive(scenario, started, api: api, unicoURL: unicoURL)
            results.append((scenario, started.journeyID))
        }

        let workers = try DemoWorkers(database: database, dependencies: stack.dependencies)
        try await workers.pass()                      // token expired: a retry is scheduled
        clock.advance(by: Self.retryPolicy.maximumInterval + 1)
        try await workers.pass()                      // the retry is allowed (no process until the app asks)
        if let returning {
            // The user opens the app again: it asks for a token (attempt 2's) and captures.
            let (status, json) = try await api.call("POST", "v1/journeys/\(returning.journeyID)/token", bearer: returning.clientToken)
            if status == 200, let token = json["webAppToken"] as? String {
                try await drive(comesBack, Started(journeyID: returning.journeyID, webAppToken: token,
                                                   clientToken: returning.clientToken), api: api, unicoURL: unicoURL)
            }
            results.append((comesBack, returning.journeyID))
        }
        for _ in 1..<Self.retryPolicy.maximumAttempts {
            clock.advance(by: 301)
            try await workers.pass()                  // expired again
            clock.advance(by: Self.retryPolicy.maximumInterval + 1)
            try await workers.pass()                  // the absent user's window runs out: abandoned
        }
        results.append((neverReturns, absent?.journeyID))
        log("workers: \(workers.statistics)")

        var summary = Summary()
        for (scenario, journeyID) in results {
            guard let journeyID else {
                summary.byScenario.append((scenario.label, "start refused", 0, "-", "-"))
                continue
            }
            let state = try await api.call("GET", "v1/journeys/\(journeyID)", bearer: key).json
            let code = (state["lastErrorCode"] as? [String: Any])?["code"] ?? state["lastErrorCode"]
            summary.byScenario.append((scenario.label, state["status"] as? String ?? "?", state["attempt"] as? Int ?? 0,
                                       state["outcome"] as? String ?? "-", code.map { "\($0)" } ?? "-"))
        }
        return summary
    }

    /// Short intervals, three attempts and a 5-minute window for absent users, so the demo shows
    /// retries and abandonment in a few passes.
    static let retryPolicy = RetryPolicy(initialInterval: 5, backoffCoefficient: 2, maximumInterval: 20, maximumAttempts: 3,
                                         abandonAfter: 300)

    struct Started: Sendable {
        let journeyID: String
        let webAppToken: String
        let clientToken: String
    }

    /// Runs scenarios four at a time.
    private func runAll(_ scenarios: [DemoScenario], api: LocalStackHTTP, key: String, unicoURL: URL) async throws -> [(DemoScenario, String?)] {
        var results: [(DemoScenario, String?)] = []
        for chunk in stride(from: 0, to: scenarios.count, by: 4).map({ Array(scenarios[$0..<min($0 + 4, scenarios.count)]) }) {
            try await withThrowingTaskGroup(of: (DemoScenario, String?).self) { group in
                for scenario in chunk {
                    group.addTask {
                        guard let started = try await start(scenario, api: api, key: key) else { return (scenario, nil) }
                        try await drive(scenario, started, api: api, unicoURL: unicoURL)
                        return (scenario, started.journeyID)
                    }
                }
                for try await result in group { results.append(result) }
            }
        }
        return results
    }

    /// What the company's backend does: start a journey with its API key.
    private func start(_ scenario: DemoScenario, api: LocalStackHTTP, key: String) async throws -> Started? {
        let document = CheckDigits.randomCPF()
        let (status, json) = try await api.call("POST", "v1/journeys", bearer: key, body: [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": document, "name": "Demo Person"],
            "environment": scenario.environment, "flow": "humantoken", "purpose": "creditprocess",
        ], headers: ["Idempotency-Key": UUID().uuidString])
        guard status == 201, let id = json["journeyId"] as? String, let token = json["webAppToken"] as? String,
              let client = json["clientToken"] as? String else {
            log("\(scenario.label): start answered \(status) \(json["code"] ?? "")")
            return nil
        }
        return Started(journeyID: id, webAppToken: token, clientToken: client)
    }

    /// What the app does: report the capture opening, run the SDK, report its callback.
    private func drive(_ scenario: DemoScenario, _ started: Started, api: LocalStackHTTP, unicoURL: URL) async throws {
        let path = "v1/journeys/\(started.journeyID)"
        switch scenario.device {
        case .appReports(let code):
            _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken, body: ["outcome": "error", "code": code])
        case .capture(let user, let isSimulator, let offline, let tokenChoice):
            _ = try await api.call("POST", "\(path)/capture-opened", bearer: started.clientToken, body: [:])
            let device = SimulatedDevice(configuration: .init(emulatorURL: unicoURL, isSimulator: isSimulator,
                                                              network: offline ? .offline : .online), user: user)
            let token: String
            switch tokenChoice {
            case .webAppToken: token = started.webAppToken
            case .empty: token = " "
            case .garbage: token = "not-a-web-app-token"
            }
            let outcome = await device.run(webAppToken: token, environment: scenario.environment == "PROD" ? .PROD : .UAT, user: user)
            switch outcome {
            case .success(let processID):
                _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken,
                                       body: ["outcome": "success", "processId": processID])
            case .error(let error):
                _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken,
                                       body: ["outcome": "error", "code": error.code])
            case .closedByUser:
                _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken, body: ["outcome": "closedByUser"])
            case .sessionTimedOut:
                _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken,
                                       body: ["outcome": "sessionTimedOut"])
            }
        }
    }
}
