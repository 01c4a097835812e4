import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JourneyClient
import JourneyTesting
import Testing
import UnicoEmulator

/// The service on loopback with a migrated database and a Unico emulator, as the company's backend sees it.
struct ClientHarness: Sendable {
    let baseURL: URL
    let emulatorURL: URL
    /// The emulator's clock; advancing it expires `webAppToken`s at Unico (the SDK then answers 73305).
    let unicoClock: TestClock
    /// The backend's API key (`journeys:write`, `journeys:read`).
    let apiKey: String

    /// The company's backend: `POST /v1/journeys` with its API key, the 201 body decoded as `JourneyStart`.
    func backendStartsJourney(reference: String = "order-42") async throws -> JourneyStart {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/journeys"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue(UUID().uuidString, forHTTPHeaderField: "Idempotency-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body: [String: Any] = [
            "subject": [
                "documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                "friendlyName": "Maria",
            ],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
            "clientReference": reference,
        ]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 201, "\(String(decoding: data, as: UTF8.self))")
        return try JourneyStart.decode(from: data)
    }

    /// The backend reads the journey with its API key (the app cannot).
    func backendReadsJourney(_ id: String) async throws -> [String: Any] {
        var request = URLRequest(url: baseURL.appendingPathComponent("v1/journeys").appendingPathComponent(id))
        request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The app's client for a journey the backend started: only the journey id and client token.
    func app(_ start: JourneyStart) -> JourneyClient {
        JourneyClient(session: JourneySession(start: start, baseURL: baseURL))
    }
}

/// Runs `body` against a fresh database, an emulator on a manual clock (set to now) and the
/// service listening on loopback (the client under test talks to it through URLSession).
func withClientHarness(_ body: (ClientHarness) async throws -> Void) async throws {
    var options = TestStack.Options(time: .emulatorOnly, listen: true)
    options.clockStart = Date()
    options.emulatorRateLimit = 1000
    options.clientRateLimit = 100
    try await TestStack.with(options) { stack in
        let port = try #require(stack.port)
        try await body(
            ClientHarness(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, emulatorURL: stack.emulatorURL,
                unicoClock: stack.clock, apiKey: stack.writer))
    }
}

/// The error a throwing call ended with, as a `JourneyClientError`.
func clientError<T>(_ body: () async throws -> T) async -> JourneyClientError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? JourneyClientError
    }
}
