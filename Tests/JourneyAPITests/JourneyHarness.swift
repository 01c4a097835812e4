import AccessControl
import Foundation
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HumanTokenAPI
import JourneyDomain
@testable import JourneyAPI
import JourneyTesting
import Postgres
import Testing
import UnicoEmulator

/// A migrated database, a Unico emulator on loopback and the service wired to both, with API keys.
struct JourneyHarness: Sendable {
    let port: Int
    let database: TestDatabase
    let emulatorURL: URL
    /// Holds `journeys:write` and `journeys:read`.
    let writer: String
    /// Holds `journeys:read` only.
    let reader: String
    /// A client of the emulator, to compare with what Unico holds.
    let unico: HumanTokenAPIClient
    let emulator: UnicoEmulator
    let metricsText: @Sendable () -> String

    /// An answer: status, headers and the JSON body as a dictionary.
    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var code: String? { json["code"] as? String }
        subscript(_ key: String) -> Any? { json[key] }
    }

    /// Sends a request; `bearer` becomes `Authorization: Bearer ...`.
    func send(_ method: String, _ path: String, bearer: String? = nil, headers: [String: String] = [:],
              json: Any? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }

    /// A valid start body; `change` edits it.
    static func startBody(_ change: (inout [String: Any]) -> Void = { _ in }) -> [String: Any] {
        var body: [String: Any] = [
            "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                        "friendlyName": "Maria"],
            "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "clientReference": "order-42",
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
        let rows = try await database.owner.query("SELECT count(DISTINCT stream_name)::int FROM events WHERE stream_name LIKE 'journey-%'")
        return try rows.first?.decode(0, as: Int.self) ?? 0
    }

    func eventTypes(_ journeyID: String) async throws -> [String] {
        let rows = try await database.owner.query("""
            SELECT event_type FROM events WHERE stream_name = \("journey-" + journeyID) ORDER BY stream_version
            """)
        return try rows.map { try $0.decode(0, as: String.self) }
    }
}

/// Runs `body` against a fresh database, an emulator with `faults` and the service. With `webhook`,
/// the emulator sends its webhooks to the service authenticated by `emulatorAuth`, and the service
/// expects `webhook`.
func withJourneys(faults: FaultScript = .none, webhook: WebhookAuthenticator? = nil,
                  emulatorAuth: UnicoEmulator.WebhookAuthentication? = nil,
                  _ body: (JourneyHarness) async throws -> Void) async throws {
    let db = try await TestDatabase.create()
    defer { Task { await db.drop() } }
    let account = try DevelopmentServiceAccount.generate(tenantID: "acme", name: "journeys", environment: .uat)
    let servicePort = webhook == nil ? 0 : try freePort()
    let webhookConfiguration = emulatorAuth.map {
        UnicoEmulator.WebhookConfiguration(url: URL(string: "http://127.0.0.1:\(servicePort)/v1/webhooks/unico")!,
                                           authentication: $0, maxAttempts: 3, requestTimeout: .seconds(10))
    }
    let emulator = try UnicoEmulator(configuration: .init(
        port: 0, serviceAccounts: [account.account], acceptsBaseURLAsAudience: true, rateLimitPerSecond: 1000,
        webhook: webhookConfiguration, faultScript: faults, accessLog: { _ in }))
    try emulator.start()
    do {
        let baseURL = try #require(emulator.baseURL)
        let configuration = HumanTokenAPIConfiguration(
            environment: .uat, serviceAccount: "journeys", tenant: "acme", privateKey: .pem(try account.privateKeyPEM()),
            tokenHost: baseURL, apiHost: baseURL, requestTimeout: 5, rateLimit: 100)
        let unico = try HumanTokenAPIClient(configuration: configuration)
        let keys = APIKeyStore(client: db.app)
        let writer = try await keys.create(name: "backend", scopes: [.journeysWrite, .journeysRead]).plaintext
        let reader = try await keys.create(name: "auditor", scopes: [.journeysRead]).plaintext
        try await withService(db.app, unico: [.uat: unico], port: servicePort, webhookAuthentication: webhook) { port, service in
            try await body(JourneyHarness(port: port, database: db, emulatorURL: baseURL, writer: writer, reader: reader,
                                          unico: unico, emulator: emulator, metricsText: { service.metrics.render() }))
        }
    } catch {
        await emulator.shutdown()
        throw error
    }
    await emulator.shutdown()
}

/// A loopback port free at the time of the call (the emulator must know the service's port first).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CocoaError(.fileNoSuchFile) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw CocoaError(.fileNoSuchFile) }
    return Int(UInt16(bigEndian: address.sin_port))
}
