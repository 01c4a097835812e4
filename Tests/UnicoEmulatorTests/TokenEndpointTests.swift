import Cryptography
import Foundation
import JSONBytes
import Testing
import UnicoEmulator

@Suite("POST /oauth2/token")
struct TokenEndpointTests {
    static let grant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// Signs `claims` as an RS256 assertion with `account`'s key.
    static func assertion(_ claims: [String: JSONValue], key: DevelopmentServiceAccount = TestKeys.uat) throws -> String {
        try JWT.sign(claims: claims, with: .rs256(key.privateKey))
    }

    /// The five documented claims for the UAT account at `now`, lasting `lifetime` seconds.
    static func claims(_ now: Date, lifetime: Int = 3600, account: DevelopmentServiceAccount = TestKeys.uat) -> [String:
        JSONValue]
    {
        let iat = Int(now.timeIntervalSince1970)
        return [
            "iss": .string(account.account.issuer), "aud": .string(account.account.environment.defaultTokenHost),
            "scope": "*", "iat": .integer(iat), "exp": .integer(iat + lifetime),
        ]
    }

    static func exchange(_ fixture: Fixture, _ assertion: String) async throws -> Reply {
        try await fixture.client.form("/oauth2/token", [("grant_type", grant), ("assertion", assertion)])
    }

    @Test func issuesAnOpaqueBearerTokenForAValidAssertion() async throws {
        try await withEmulator { fixture in
            let reply = try await Self.exchange(fixture, try Self.assertion(Self.claims(fixture.clock.now())))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let json = try reply.json()
            let token = try #require(json["access_token"] as? String)
            #expect(token.count >= 40)
            #expect(token.split(separator: ".").count == 1, "opaque, not a JWT")
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["expires_in"] as? Int == 3600)
        }
    }

    @Test func refusesAnAssertionSignedWithAnotherKey() async throws {
        try await withEmulator { fixture in
            let forged = try Self.assertion(Self.claims(fixture.clock.now()), key: TestKeys.stranger)
            let reply = try await Self.exchange(fixture, forged)
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.2.5")
        }
    }

    @Test(arguments: ["jti", "sub", "nbf"])
    func refusesAnyExtraClaim(_ extra: String) async throws {
        try await withEmulator { fixture in
            var claims = Self.claims(fixture.clock.now())
            claims[extra] = extra == "nbf" ? .integer(Int(fixture.clock.now().timeIntervalSince1970)) : "value"
            let reply = try await Self.exchange(fixture, try Self.assertion(claims))
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.2.22")
        }
    }

    @Test func refusesAnExpiredAssertion() async throws {
        try await withEmulator { fixture in
            let assertion = try Self.assertion(Self.claims(fixture.clock.now().addingTimeInterval(-3601)))
            let reply = try await Self.exchange(fixture, assertion)
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.2.4")
        }
    }

    @Test(arguments: [3601, 7200, 0, -10])
    func refusesALifetimeOutsideOneHour(_ lifetime: Int) async throws {
        try await withEmulator { fixture in
            let reply = try await Self.exchange(fixture, try Self.assertion(Self.claims(fixture.clock.now(), lifetime: lifetime)))
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.2.5")
        }
    }

    @Test func acceptsExactlyOneHour() async throws {
        try await withEmulator { fixture in
            let reply = try await Self.exchange(fixture, try Self.assertion(Self.claims(fixture.clock.now(), lifetime: 3600)))
            #expect(reply.status == 200)
        }
    }

    @Test func refusesAReplayedAssertionUntilItExpires() async throws {
        try await withEmulator { fixture in
            let assertion = try Self.assertion(Self.claims(fixture.clock.now(), lifetime: 60))
            #expect(try await Self.exchange(fixture, assertion).status == 200)
            let replay = try await Self.exchange(fixture, assertion)
            #expect(replay.status == 401)
            #expect(try replay.tokenErrorCode() == "1.2.7")
            fixture.clock.advance(by: 61)
            let late = try await Self.exchange(fixture, assertion)
            #expect(try late.tokenErrorCode() == "1.2.4", "after exp the assertion is expired, not replayed")
        }
    }

    @Test func refusesAnUnknownTenant() async throws {
        try await withEmulator { fixture in
            var claims = Self.claims(fixture.clock.now())
            claims["iss"] = "backend@tenant-zzz.iam.acesso.io"
            let reply = try await Self.exchange(fixture, try Self.assertion(claims))
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.0.1")
        }
    }

    @Test(arguments: ["https://identity.acesso.io", "https://identityhomolog.acesso.io/", "https://example.com"])
    func refusesAnAudienceOtherThanTheEnvironmentsTokenHost(_ audience: String) async throws {
        try await withEmulator { fixture in
            var claims = Self.claims(fixture.clock.now(), account: TestKeys.otherTenant)
            claims["aud"] = .string(audience)
            let reply = try await Self.exchange(fixture, try Self.assertion(claims, key: TestKeys.otherTenant))
            #expect(reply.status == 401)
            #expect(try reply.tokenErrorCode() == "1.2.5")
        }
    }

    @Test func picksTheAccountByAudienceWhenOneIssuerExistsInBothEnvironments() async throws {
        try await withEmulator { fixture in
            let prod = try await Self.exchange(
                fixture, try Self.assertion(Self.claims(fixture.clock.now(), account: TestKeys.prod), key: TestKeys.prod))
            #expect(prod.status == 200)
        }
    }

    @Test func refusesMissingOrNarrowScope() async throws {
        try await withEmulator { fixture in
            var claims = Self.claims(fixture.clock.now())
            claims["scope"] = nil
            let missing = try await Self.exchange(fixture, try Self.assertion(claims))
            #expect(try missing.tokenErrorCode() == "1.1.1")
            claims["scope"] = "processes:read"
            let narrow = try await Self.exchange(fixture, try Self.assertion(claims))
            #expect(try narrow.tokenErrorCode() == "1.2.14")
        }
    }

    @Test func answersAMalformedFormWith400() async throws {
        try await withEmulator { fixture in
            let assertion = try Self.assertion(Self.claims(fixture.clock.now()))
            let wrongGrant = try await fixture.client.form(
                "/oauth2/token", [("grant_type", "client_credentials"), ("assertion", assertion)])
            #expect(wrongGrant.status == 400)
            #expect(try wrongGrant.tokenErrorCode() == "1.2.20")
            let missing = try await fixture.client.form("/oauth2/token", [("grant_type", Self.grant)])
            #expect(missing.status == 400)
            let json = try await fixture.client.json("POST", "/oauth2/token", ["grant_type": Self.grant, "assertion": assertion])
            #expect(json.status == 400)
            let garbage = try await Self.exchange(fixture, "not-a-jwt")
            #expect(garbage.status == 401)
            #expect(try garbage.tokenErrorCode() == "1.2.21")
        }
    }

    @Test func accessTokensExpireAfterTheirLifetime() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            fixture.clock.advance(by: 3599)
            #expect(try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody).status == 200)
            fixture.clock.advance(by: 1)
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
            #expect(reply.status == 401)
            #expect(try reply.apiError().code == 16)
        }
    }
}
