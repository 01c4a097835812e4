import Foundation
import Testing
import UnicoEmulator

@Suite("API authorization, visibility and rate limit")
struct AuthorizationTests {
    @Test func refusesRequestsWithoutAValidBearerToken() async throws {
        try await withEmulator { fixture in
            let missing = try await fixture.client.json("POST", "/processes", Fixture.validBody)
            #expect(missing.status == 401)
            #expect(try missing.apiError().code == 16)
            let bogus = try await fixture.client.json("POST", "/processes", bearer: "made-up-token", Fixture.validBody)
            #expect(bogus.status == 401)
            let basic = try await fixture.client.send("GET", "/processes/x", headers: ["Authorization": "Basic dXNlcjpwYXNz"])
            #expect(basic.status == 401)
            let get = try await fixture.client.send("GET", "/processes/x", headers: ["Authorization": "Bearer made-up-token"])
            #expect(get.status == 401)
            #expect(fixture.emulator.processes().isEmpty)
        }
    }

    @Test func answers404ForUnknownIdsAndForOtherEnvironmentsAndTenants() async throws {
        try await withEmulator { fixture in
            let uat = try await fixture.accessToken(TestKeys.uat)
            let prod = try await fixture.accessToken(TestKeys.prod)
            let other = try await fixture.accessToken(TestKeys.otherTenant)
            let id = try #require(try await fixture.createProcess(token: uat)["id"] as? String)

            let unknown = try await fixture.client.send(
                "GET", "/processes/00000000-0000-0000-0000-000000000000", headers: ["Authorization": "Bearer \(uat)"])
            #expect(unknown.status == 404)
            #expect(try unknown.apiError().code == 5)
            for token in [prod, other] {
                let hidden = try await fixture.client.send(
                    "GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(token)"])
                #expect(hidden.status == 404)
                #expect(try hidden.apiError().code == 5)
            }
            let own = try await fixture.client.send("GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(uat)"])
            #expect(own.status == 200)
            let prodProcess = try await fixture.createProcess(token: prod)
            #expect(fixture.emulator.process(id: prodProcess["id"] as! String)?.environment == .prod)
        }
    }

    @Test func limitsEachTenantWith429AndRetryAfter() async throws {
        try await withEmulator({ $0.rateLimitPerSecond = 3 }) { fixture in
            let tokenA = try await fixture.accessToken(TestKeys.uat)
            let tokenB = try await fixture.accessToken(TestKeys.otherTenant)
            let auth = ["Authorization": "Bearer \(tokenA)"]
            for _ in 0..<3 {
                #expect(try await fixture.client.send("GET", "/processes/none", headers: auth).status == 404)
            }
            let limited = try await fixture.client.send("GET", "/processes/none", headers: auth)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            #expect(try limited.apiError().code == 8)
            let create = try await fixture.client.json("POST", "/processes", bearer: tokenA, Fixture.validBody)
            #expect(create.status == 429, "creates share the tenant's bucket")

            let otherTenant = try await fixture.client.send(
                "GET", "/processes/none", headers: ["Authorization": "Bearer \(tokenB)"])
            #expect(otherTenant.status == 404, "another tenant has its own bucket")

            fixture.clock.advance(by: 1)
            #expect(try await fixture.client.send("GET", "/processes/none", headers: auth).status == 404)
        }
    }

    @Test func tokenEndpointIsNotRateLimited() async throws {
        try await withEmulator({ $0.rateLimitPerSecond = 1 }) { fixture in
            for _ in 0..<3 {
                _ = try await fixture.accessToken()
                fixture.clock.advance(by: 1)  // the same claims in the same second would be a replay
            }
        }
    }
}
