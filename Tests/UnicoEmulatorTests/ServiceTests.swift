import Cryptography
import Foundation
import HTTPServer
import JSONBytes
import JourneyTesting
import Testing
import UnicoEmulator

@Suite("Emulator as a service")
struct ServiceTests {
    @Test func runServesUntilCancelled() async throws {
        let emulator = try UnicoEmulator(configuration: Fixture.configuration(clock: TestClock()))
        let task = Task { try await emulator.run() }
        try await waitUntil("the emulator listens") { emulator.port != nil }
        let base = try #require(emulator.baseURL)
        let health = try await HTTPClient(base: base).send("GET", "/healthz")
        #expect(health.status == 200)
        task.cancel()
        try await task.value
        #expect(emulator.port == nil)
    }

    @Test func startTwiceFailsAndShutdownIsIdempotent() async throws {
        let emulator = try UnicoEmulator(configuration: Fixture.configuration(clock: TestClock()))
        try emulator.start()
        #expect(emulator.baseURL?.absoluteString == "http://127.0.0.1:\(emulator.port!)")
        do throws(EmulatorError) {
            try emulator.start()
            Issue.record("started twice")
        } catch {
            #expect(error.code == .serverFailed)
        }
        await emulator.shutdown()
        await emulator.shutdown()
        #expect(emulator.port == nil)
    }

    @Test func refusesOutOfRangeConfiguration() {
        for adjust: (inout UnicoEmulator.Configuration) -> Void in [
            { $0.port = 70000 }, { $0.rateLimitPerSecond = -1 }, { $0.accessTokenLifetime = 0 },
            { $0.webAppTokenLifetime = -5 }, { $0.faultScript.webhook.duplicateRate = 2 },
            { $0.webhook = .init(url: URL(string: "ftp://example.com")!) },
            { $0.webhook = .init(url: URL(string: "http://127.0.0.1:1/")!, maxAttempts: 0) },
        ] {
            do throws(EmulatorError) {
                _ = try UnicoEmulator(configuration: Fixture.configuration(clock: TestClock(), adjust))
                Issue.record("accepted an invalid configuration")
            } catch {
                #expect([.invalidConfiguration, .invalidFaultScript].contains(error.code))
            }
        }
    }

    @Test func revokedAccessTokensAnswer401() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            fixture.emulator.revokeAccessTokens()
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
            #expect(reply.status == 401)
        }
    }

    @Test func customTokenHostBecomesTheExpectedAudience() async throws {
        try await withEmulator({ $0.tokenHosts[.uat] = "http://127.0.0.1:9999/" }) { fixture in
            let documented = try TestKeys.uat.assertion(issuedAt: fixture.clock.now())
            #expect(try await TokenEndpointTests.exchange(fixture, documented).tokenErrorCode() == "1.2.5")
            let custom = try TestKeys.uat.assertion(audience: "http://127.0.0.1:9999", issuedAt: fixture.clock.now())
            #expect(try await TokenEndpointTests.exchange(fixture, custom).status == 200)
        }
    }

    @Test func developmentAccountWritesAnOwnerOnlyKeyThatSignsAcceptedAssertions() async throws {
        let account = try DevelopmentServiceAccount.generate(tenantID: "dev", name: "cli", environment: .prod)
        #expect(account.account.issuer == "cli@dev.iam.acesso.io")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unico-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try account.writePrivateKey(to: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let pem = try String(contentsOfFile: path, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try RSAPrivateKey(pem: pem)
        #expect(reloaded.publicKey == account.account.publicKey)

        let publicPEM = try account.account.publicKey.pem
        let fromPEM = try UnicoEmulator.ServiceAccount(tenantID: "dev", name: "cli", environment: .prod, publicKeyPEM: publicPEM)
        try await withEmulator({ $0.serviceAccounts = [fromPEM] }) { fixture in
            let assertion = try JWT.sign(
                claims: [
                    "iss": .string("cli@dev.iam.acesso.io"), "aud": "https://identity.acesso.io", "scope": "*",
                    "iat": .integer(Int(fixture.clock.now().timeIntervalSince1970)),
                    "exp": .integer(Int(fixture.clock.now().timeIntervalSince1970) + 600),
                ] as [String: JSONValue], with: .rs256(reloaded))
            let reply = try await TokenEndpointTests.exchange(fixture, assertion)
            #expect(reply.status == 200)
        }
    }

    @Test func linkPageServesTheProcessWithoutPersonalData() async throws {
        try await withEmulator { fixture in
            let process = try await fixture.createProcess(token: try await fixture.accessToken())
            let link = try #require(URL(string: process["link"] as! String))
            let page = try await HTTPClient(base: link).send("GET", link.path)
            #expect(page.status == 200)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains(process["id"] as! String))
            #expect(!html.contains("12345678909") && !html.contains("Maria"))
            #expect(try await fixture.client.send("GET", "/link/unknown").status == 404)
        }
    }

    @Test func basicCredentialsParseLikeUnicosSetting() throws {
        #expect(
            try UnicoEmulator.WebhookAuthentication(basicCredentials: "user:pa:ss") == .basic(user: "user", password: "pa:ss"))
        #expect(throws: EmulatorError.self) { try UnicoEmulator.WebhookAuthentication(basicCredentials: "nocolon") }
    }
}

@Suite("Audience of a port-0 emulator")
struct SelfAudienceTests {
    @Test func theBaseURLIsAnAudienceOnlyWhenAskedFor() async throws {
        for accepts in [false, true] {
            try await withEmulator({ $0.acceptsBaseURLAsAudience = accepts }) { fixture in
                let base = fixture.emulator.baseURL!.absoluteString
                let assertion = try TestKeys.uat.assertion(audience: base, issuedAt: fixture.clock.now())
                let reply = try await TokenEndpointTests.exchange(fixture, assertion)
                #expect(reply.status == (accepts ? 200 : 401))
                fixture.clock.advance(by: 1)
                let documented = try TestKeys.uat.assertion(issuedAt: fixture.clock.now())
                #expect(try await TokenEndpointTests.exchange(fixture, documented).status == 200)
            }
        }
    }
}
