import Cryptography
import Foundation
import HTTPServer
import JourneyTesting
import Testing
import UnicoEmulator

/// Keys generated once per test run; RSA generation is slow.
enum TestKeys {
    static let uat = try! DevelopmentServiceAccount.generate(tenantID: "tenant-a", name: "backend", environment: .uat)
    static let prod = try! DevelopmentServiceAccount.generate(tenantID: "tenant-a", name: "backend", environment: .prod)
    static let otherTenant = try! DevelopmentServiceAccount.generate(tenantID: "tenant-b", name: "backend", environment: .uat)
    static let stranger = try! DevelopmentServiceAccount.generate(tenantID: "tenant-a", name: "backend", environment: .uat)
}

/// A running emulator plus a client pointed at it.
struct Fixture: Sendable {
    let emulator: UnicoEmulator
    let client: HTTPClient
    let clock: TestClock

    /// A configuration with the three test accounts, a manual clock and no access log.
    static func configuration(clock: TestClock, _ adjust: (inout UnicoEmulator.Configuration) -> Void = { _ in })
        -> UnicoEmulator.Configuration
    {
        var configuration = UnicoEmulator.Configuration(
            port: 0,
            serviceAccounts: [TestKeys.uat.account, TestKeys.prod.account, TestKeys.otherTenant.account],
            rateLimitPerSecond: 0,
            clock: clock,
            accessLog: AccessLogEntry.discard)
        adjust(&configuration)
        return configuration
    }

    /// An access token for `account`, asserted at the emulator's current time.
    func accessToken(_ account: DevelopmentServiceAccount = TestKeys.uat) async throws -> String {
        let assertion = try account.assertion(issuedAt: clock.now())
        let reply = try await client.form(
            "/oauth2/token",
            [
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion),
            ])
        #expect(reply.status == 200)
        return try #require(try reply.json()["access_token"] as? String)
    }

    /// Creates a process and returns the whole `process` object.
    func createProcess(token: String, _ body: [String: Any] = Fixture.validBody) async throws -> [String: Any] {
        let reply = try await client.json("POST", "/processes", bearer: token, body)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return try #require(try reply.json()["process"] as? [String: Any])
    }

    static var validBody: [String: Any] {
        [
            "callbackUri": "/",
            "flow": "idtoken",
            "purpose": "biometryonboarding",
            "clientReference": "journey-1",
            "expiresIn": "86400s",
            "person": [
                "duiType": "DUI_TYPE_BR_CPF",
                "duiValue": "12345678909",
                "friendlyName": "Maria",
                "phone": "5511999999999",
                "email": "maria@example.com",
                "notifications": [["notificationChannel": "NOTIFICATION_CHANNEL_EMAIL"]],
            ],
        ]
    }
}

/// Starts an emulator on a free loopback port, runs `body`, and always shuts it down.
func withEmulator<T>(
    clock: TestClock = TestClock(),
    _ adjust: (inout UnicoEmulator.Configuration) -> Void = { _ in },
    _ body: (Fixture) async throws -> T
) async throws -> T {
    let emulator = try UnicoEmulator(configuration: Fixture.configuration(clock: clock, adjust))
    try emulator.start()
    do {
        let fixture = Fixture(emulator: emulator, client: HTTPClient(base: try #require(emulator.baseURL)), clock: clock)
        let result = try await body(fixture)
        await emulator.shutdown()
        return result
    } catch {
        await emulator.shutdown()
        throw error
    }
}
