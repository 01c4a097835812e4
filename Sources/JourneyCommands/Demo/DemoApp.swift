import Foundation
import JourneyApp
import JourneyDomain
import SDKLiteSimulator

/// What the demo's company backend and phone app do, over real HTTP: start journeys with the
/// API key, report what the SDK Lite says, and ask for a token before each capture.
struct DemoApp: Sendable {
    /// A started journey as the app holds it.
    struct Started: Sendable {
        let journeyID: String
        let attempt: Int
        let webAppToken: String
        let clientToken: String
    }

    let api: LocalStackHTTP
    let key: String
    let unicoURL: URL
    let log: @Sendable (String) -> Void

    /// Runs `scenarios` four at a time; each one's label and journey id (nil when the start was refused).
    func runAll(_ scenarios: [DemoScenario]) async throws -> [(String, String?)] {
        var results: [(String, String?)] = []
        for chunk in stride(from: 0, to: scenarios.count, by: 4).map({ Array(scenarios[$0..<min($0 + 4, scenarios.count)]) }) {
            try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for scenario in chunk {
                    group.addTask {
                        guard let started = try await start(scenario.label, environment: scenario.environment) else {
                            return (scenario.label, nil)
                        }
                        try await drive(scenario.device, started, environment: scenario.environment)
                        if let user = scenario.comesBackAs { try await comeBack(started, as: user, label: scenario.label) }
                        return (scenario.label, started.journeyID)
                    }
                }
                for try await result in group { results.append(result) }
            }
        }
        return results
    }

    /// What the company's backend does (start a journey with its API key: no Unico call yet),
    /// then the app right before opening the camera (ask for a token: attempt 1's process).
    func start(_ label: String, environment: String = "UAT") async throws -> Started? {
        guard let (id, client) = try await startOnly(label, environment: environment) else { return nil }
        return try await token(Started(journeyID: id, attempt: 0, webAppToken: "", clientToken: client), label: label)
    }

    /// `POST /v1/journeys` without a process: the journey id and the app's client token.
    func startOnly(_ label: String, environment: String = "UAT") async throws -> (String, String)? {
        let document = CheckDigits.randomCPF()
        let (status, json) = try await api.call(
            "POST", "v1/journeys", bearer: key,
            body: [
                "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": document, "name": "Demo Person"],
                "environment": environment, "flow": "humantoken", "purpose": "creditprocess",
            ], headers: ["Idempotency-Key": UUID().uuidString])
        guard status == 201, let id = json["journeyId"] as? String, let client = json["clientToken"] as? String else {
            log("\(label): start answered \(status) \(json["code"] ?? "")")
            return nil
        }
        return (id, client)
    }

    /// What the company's backend does for a person who comes back after the app's client token
    /// expired: `POST …/client-token` with its API key; nil (logged) when refused.
    func renewClientToken(_ journeyID: String, label: String) async throws -> String? {
        let (status, json) = try await api.call("POST", "v1/journeys/\(journeyID)/client-token", bearer: key)
        guard status == 201, let token = json["clientToken"] as? String else {
            log("\(label): client-token request answered \(status) \(json["code"] ?? "")")
            return nil
        }
        return token
    }

    /// The user opens the app again: it asks for a token (`POST …/token`, a new attempt with a
    /// fresh process) and `user` captures with it.
    func comeBack(_ started: Started, as user: SimulatedUser, label: String) async throws {
        guard let next = try await token(started, label: label) else { return }
        try await drive(.capture(user), next, environment: "UAT")
    }

    /// `POST …/token`: the next capture's token, or nil (logged) when the service refused it.
    func token(_ started: Started, label: String) async throws -> Started? {
        let (status, json) = try await api.call("POST", "v1/journeys/\(started.journeyID)/token", bearer: started.clientToken)
        guard status == 200, let token = json["webAppToken"] as? String, let attempt = json["attempt"] as? Int else {
            log("\(label): token request answered \(status) \(json["code"] ?? "")")
            return nil
        }
        return Started(journeyID: started.journeyID, attempt: attempt, webAppToken: token, clientToken: started.clientToken)
    }

    /// What the app does: report the capture opening, run the SDK, report its callback.
    func drive(_ device: DemoScenario.Device, _ started: Started, environment: String) async throws {
        let path = "v1/journeys/\(started.journeyID)"
        switch device {
        case .appReports(let code):
            _ = try await api.call(
                "POST", "\(path)/callback", bearer: started.clientToken, body: ["outcome": "error", "code": code])
        case .capture(let user, let isSimulator, let offline, let tokenChoice):
            _ = try await api.call("POST", "\(path)/capture-opened", bearer: started.clientToken, body: [:])
            let device = SimulatedDevice(
                configuration: .init(
                    emulatorURL: unicoURL, isSimulator: isSimulator,
                    network: offline ? .offline : .online), user: user)
            let token: String
            switch tokenChoice {
            case .webAppToken: token = started.webAppToken
            case .empty: token = " "
            case .garbage: token = "not-a-web-app-token"
            }
            let outcome = await device.run(webAppToken: token, environment: environment == "PROD" ? .PROD : .UAT, user: user)
            let body: [String: Any] =
                switch outcome {
                case .success(let processID): ["outcome": "success", "processId": processID]
                case .error(let error): ["outcome": "error", "code": error.code]
                case .closedByUser: ["outcome": "closedByUser"]
                case .sessionTimedOut: ["outcome": "sessionTimedOut"]
                }
            _ = try await api.call("POST", "\(path)/callback", bearer: started.clientToken, body: body)
        }
    }
}
