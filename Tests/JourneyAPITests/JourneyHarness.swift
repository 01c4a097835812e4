import Foundation
import HumanTokenAPI
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Testing
import UnicoEmulator

/// A ``TestStack`` on the system clock, seen as the API tests see it: requests in-process, the
/// emulator, the database and API keys.
struct JourneyHarness: Sendable {
    typealias Answer = TestResponse

    let stack: TestStack
    var database: TestDatabase { stack.database }
    var emulatorURL: URL { stack.emulatorURL }
    /// Holds `journeys:write` and `journeys:read`.
    var writer: String { stack.writer }
    /// Holds `journeys:read` and `human-token:read`.
    var reader: String { stack.reader }
    /// The `Disclosure-Purpose` header the routes that open personal data require.
    var purpose: [String: String] { ["Disclosure-Purpose": "test: compare with Unico"] }
    /// A client of the emulator, to compare with what Unico holds.
    var unico: HumanTokenAPIClient { stack.unico }
    var emulator: UnicoEmulator { stack.emulator }
    func metricsText() -> String { stack.metricsText }

    /// Sends a request in-process; `bearer` becomes `Authorization: Bearer ...`.
    func send(
        _ method: String, _ path: String, bearer: String? = nil, headers: [String: String] = [:],
        json: Any? = nil
    ) async throws -> Answer {
        try await stack.send(method, path, bearer: bearer, headers: headers, json: json)
    }

    /// A valid start body; `change` edits it.
    static func startBody(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var body: [String: Any] = [
            "subject": [
                "documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                "friendlyName": "Maria",
            ],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
            "clientReference": "order-42",
        ]
        change(&body)
        return body
    }

    /// Starts a journey with the writer key and a valid body.
    func start(_ body: [String: Any] = JourneyHarness.startBody(), key: String? = nil) async throws -> Answer {
        var headers: [String: String] = [:]
        if let key { headers["Idempotency-Key"] = key }
        return try await send("POST", "/v1/journeys", bearer: writer, headers: headers, json: body)
    }

    /// Event types of every journey stream, and the number of journeys, read as the schema owner.
    func journeyCount() async throws -> Int {
        let rows = try await database.owner.query(
            "SELECT count(DISTINCT stream_name)::int FROM events WHERE stream_name LIKE 'journey-%'")
        return try rows.first?.decode(0, as: Int.self) ?? 0
    }

    func eventTypes(_ journeyID: String) async throws -> [String] {
        let rows = try await database.owner.query(
            """
            SELECT event_type FROM events WHERE stream_name = \("journey-" + journeyID) ORDER BY stream_version
            """)
        return try rows.map { try $0.decode(0, as: String.self) }
    }
}

/// Runs `body` against a fresh database, an emulator with `faults` and the service. With
/// `emulatorAuth`, the emulator sends its webhooks to the (then listening) service authenticated
/// by it; the service expects `webhook`.
func withJourneys(
    faults: FaultScript = .none, webhook: WebhookAuthenticator? = nil,
    emulatorAuth: UnicoEmulator.WebhookAuthentication? = nil, shape: UnicoEmulator.ResponseShape = .wrapped,
    _ body: (JourneyHarness) async throws -> Void
) async throws {
    var options = TestStack.Options(time: .system, faults: faults)
    options.emulatorRateLimit = 1000
    options.clientRateLimit = 100
    options.webhookAuthentication = webhook
    options.emulatorWebhooks = emulatorAuth
    options.responseShape = shape
    try await TestStack.with(options) { stack in try await body(JourneyHarness(stack: stack)) }
}
