import Cryptography
import Foundation
import HumanTokenAPI
import JSONBytes
import JourneyTesting
import Testing
import UnicoEmulator
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running Unico emulator on loopback, with the test service accounts, and clients for it.
///
/// The UAT account is `journeys@acme`, the PROD one `journeys-prod@acme`, both with
/// ``TestKeys/account``. The emulator's clock is ``clock`` when given (it starts at the real time
/// and moves only when told), else the system clock.
struct Emulated: Sendable {
    static let tenant = "acme"
    static let uatAccount = "journeys"
    static let prodAccount = "journeys-prod"

    let emulator: UnicoEmulator
    let baseURL: URL
    let clock: TestClock?

    /// A client configuration pointing both hosts at the emulator, whose lookup it may use.
    func configuration(
        _ environment: HumanTokenAPIEnvironment = .uat, key: String = TestKeys.accountPKCS8,
        tenant: String = Emulated.tenant, requestTimeout: TimeInterval = 5, tokenRefreshMargin: TimeInterval = 60,
        rateLimit: Double = 10
    ) -> HumanTokenAPIConfiguration {
        HumanTokenAPIConfiguration(
            environment: environment, serviceAccount: environment == .uat ? Self.uatAccount : Self.prodAccount,
            tenant: tenant, privateKey: .pem(key), tokenHost: baseURL, apiHost: baseURL,
            requestTimeout: requestTimeout, tokenRefreshMargin: tokenRefreshMargin, rateLimit: rateLimit,
            lookup: .search)
    }

    /// A client for `configuration` (default: UAT with the known key).
    func client(
        _ configuration: HumanTokenAPIConfiguration? = nil, clock: @escaping @Sendable () -> Date = Date.init
    ) throws -> HumanTokenAPIClient {
        try HumanTokenAPIClient(configuration: configuration ?? self.configuration(), clock: clock)
    }

    /// Posts `assertion` to the token endpoint the way the client does, for assertions the client never builds.
    func postAssertion(_ assertion: String) async throws -> (status: Int, body: JSONValue?) {
        var request = URLRequest(url: baseURL.appendingPathComponent("oauth2/token"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let encoded =
            assertion.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._"))) ?? ""
        request.httpBody = Data("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(encoded)".utf8)
        return try await send(request)
    }

    /// Plays the device: prepares a capture with `webAppToken` and finishes it with `outcome`.
    func capture(webAppToken: String, environment: String = "UAT", outcome: String = "approved") async throws {
        var prepare = URLRequest(url: baseURL.appendingPathComponent("sdk/captures"))
        prepare.httpMethod = "POST"
        prepare.setValue("application/json", forHTTPHeaderField: "Content-Type")
        prepare.httpBody = try JSONEncoder().encode(["webAppToken": webAppToken, "environment": environment])
        let prepared = try await send(prepare)
        try #require(prepared.status == 201)
        let captureID = try #require(prepared.body?["captureId"]?.stringValue)
        var finish = URLRequest(url: baseURL.appendingPathComponent("sdk/captures/\(captureID)/finish"))
        finish.httpMethod = "POST"
        finish.setValue("application/json", forHTTPHeaderField: "Content-Type")
        finish.httpBody = try JSONEncoder().encode(["outcome": outcome])
        try #require(try await send(finish).status == 200)
    }

    /// A signed assertion for the UAT account with `claims` replacing or adding to the documented five.
    func assertion(
        issuedAt: Date = Date(), lifetime: Int = 3600, key: RSAPrivateKey = TestKeys.account,
        _ changes: [String: JSONValue] = [:]
    ) throws -> String {
        let iat = Int(issuedAt.timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string("\(Self.uatAccount)@\(Self.tenant).iam.acesso.io"), "aud": .string(baseURL.absoluteString),
            "scope": "*", "iat": .integer(iat), "exp": .integer(iat + lifetime),
        ]
        claims.merge(changes) { $1 }
        return try JWT.sign(claims: claims, with: .rs256(key))
    }

    private func send(_ request: URLRequest) async throws -> (status: Int, body: JSONValue?) {
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, try? JSONDecoder().decode(JSONValue.self, from: data))
    }
}

/// Starts an emulator on a free loopback port, runs `body`, and always shuts it down.
///
/// The emulator accepts its own base URL as `aud`, which is what a client whose token host is
/// the emulator signs. `clock` nil runs it on the system clock, which its rate limit needs to refill.
func withEmulator(
    faults: FaultScript = .none, rateLimit: Int = 10, accessTokenLifetime: TimeInterval = 3600,
    clock: TestClock? = TestClock(Date()), shape: UnicoEmulator.ResponseShape = .wrapped,
    _ body: (Emulated) async throws -> Void
) async throws {
    let accounts: [UnicoEmulator.ServiceAccount] = [
        .init(tenantID: Emulated.tenant, name: Emulated.uatAccount, environment: .uat, publicKey: TestKeys.account.publicKey),
        .init(tenantID: Emulated.tenant, name: Emulated.prodAccount, environment: .prod, publicKey: TestKeys.account.publicKey),
    ]
    let emulator = try UnicoEmulator(
        configuration: .init(
            port: 0, serviceAccounts: accounts, acceptsBaseURLAsAudience: true,
            accessTokenLifetime: accessTokenLifetime, rateLimitPerSecond: rateLimit, responseShape: shape, faultScript: faults,
            clock: clock ?? SystemEmulatorClock(), accessLog: { _ in }))
    try emulator.start()
    do {
        let emulated = Emulated(emulator: emulator, baseURL: try #require(emulator.baseURL), clock: clock)
        try await body(emulated)
    } catch {
        await emulator.shutdown()
        throw error
    }
    await emulator.shutdown()
}

/// Runs `body`, which must throw a ``HumanTokenAPIError``, and returns that error.
func apiError(_ body: () async throws -> some Any) async -> HumanTokenAPIError? {
    do {
        _ = try await body()
        Issue.record("expected a HumanTokenAPIError, got success")
        return nil
    } catch let error as HumanTokenAPIError {
        return error
    } catch {
        Issue.record("expected a HumanTokenAPIError, got \(error)")
        return nil
    }
}

/// Checks that none of `secrets` shows in the error's description, message or reflection.
func expectNoSecrets(_ error: HumanTokenAPIError?, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else { return }
    var dumped = ""
    dump(error, to: &dumped)
    for text in [error.description, error.message, String(reflecting: error), dumped] {
        for secret in secrets where !secret.isEmpty {
            #expect(!text.contains(secret), "error text shows a secret", sourceLocation: sourceLocation)
        }
    }
}
