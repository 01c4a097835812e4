import Cryptography
import Foundation
import JSONBytes
import JourneyTesting
import Testing
import UnicoEmulator
@testable import HumanTokenAPI

/// The JWT-bearer grant against the emulator: caching, sharing, and each documented refusal.
@Suite("Token endpoint against the emulator")
struct TokenEndpointTests {
    @Test func theTokenIsFetchedOnceAndReused() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let created = try await client.createProcess(Samples.minimalRequest())
            _ = try await client.getProcess(created.id)
            _ = try await client.getProcess(created.id)
            #expect(client.tokens.fetchCount == 1)
        }
    }

    @Test func concurrentCallersShareOneFetch() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 { group.addTask { try await client.createProcess(Samples.minimalRequest()).id } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 6)
            #expect(client.tokens.fetchCount == 1)
        }
    }

    @Test func theTokenIsReplacedOnceTheMarginIsReached() async throws {
        try await withEmulator(accessTokenLifetime: 120) { unico in
            let clock = TestClock(Date())
            let client = try unico.client(unico.configuration(tokenRefreshMargin: 100), clock: clock.now)
            let created = try await client.createProcess(Samples.minimalRequest())
            clock.advance(by: 19)
            _ = try await client.getProcess(created.id)
            #expect(client.tokens.fetchCount == 1)
            clock.advance(by: 1)
            _ = try await client.getProcess(created.id)
            #expect(client.tokens.fetchCount == 2)
        }
    }

    @Test func assertionsInTheSameSecondAreNotReplays() async throws {
        try await withEmulator { unico in
            let frozen = Date()
            let client = try unico.client(clock: { frozen })
            for _ in 0..<3 {
                let token = try await client.tokens.token()
                client.tokens.invalidate(token)
            }
            #expect(client.tokens.fetchCount == 3)
        }
    }

    @Test func aKeyTheEmulatorDoesNotKnowIsRefused() async throws {
        try await withEmulator { unico in
            let client = try unico.client(unico.configuration(key: TestKeys.strangerPKCS8))
            let error = await apiError { try await client.createProcess(Samples.fullRequest()) }
            #expect(error?.code == .unauthorized)
            #expect(error?.unicoCode == "1.2.5")
            #expect(error?.status == 401)
            expectNoSecrets(error, Samples.personalData + [TestKeys.strangerPKCS8.split(separator: "\n")[1].description])
        }
    }

    @Test func anUnknownTenantIsRefused() async throws {
        try await withEmulator { unico in
            let client = try unico.client(unico.configuration(tenant: "someone-else"))
            let error = await apiError { try await client.getProcess("x") }
            #expect(error?.code == .unauthorized)
            #expect(error?.unicoCode == "1.0.1")
        }
    }

    @Test func anExpiredAssertionIsRefused() async throws {
        try await withEmulator { unico in
            let skewed = try unico.client(clock: { Date().addingTimeInterval(-2 * 3600) })
            let error = await apiError { try await skewed.createProcess(Samples.minimalRequest()) }
            #expect(error?.code == .unauthorized)
            #expect(error?.unicoCode == "1.2.4")
            #expect(error?.message.contains("expired") == true)
        }
    }

    @Test func anAssertionIsExpiredForAnEmulatorWhoseClockRunsAhead() async throws {
        try await withEmulator(faults: FaultScript(clockOffsetSeconds: 7200)) { unico in
            let error = await apiError { try await unico.client().createProcess(Samples.minimalRequest()) }
            #expect(error?.unicoCode == "1.2.4")
        }
    }

    @Test func aReplayedAssertionIsRefused() async throws {
        try await withEmulator { unico in
            let assertion = try unico.assertion()
            #expect(try await unico.postAssertion(assertion).status == 200)
            let replay = try await unico.postAssertion(assertion)
            #expect(replay.status == 401)
            let error = try mapped(replay)
            #expect(error.code == .unauthorized)
            #expect(error.unicoCode == "1.2.7")
            expectNoSecrets(error, [assertion])
        }
    }

    @Test(arguments: [
        ["jti": JSONValue.string("a1")], ["sub": "journeys"], ["nbf": .integer(Int(Date().timeIntervalSince1970))],
    ])
    func anExtraClaimIsRefused(extra: [String: JSONValue]) async throws {
        try await withEmulator { unico in
            let answer = try await unico.postAssertion(unico.assertion(extra))
            #expect(answer.status == 401)
            #expect(try mapped(answer).unicoCode == "1.2.22")
        }
    }

    @Test func aLifetimeOverAnHourIsRefused() async throws {
        try await withEmulator { unico in
            let answer = try await unico.postAssertion(unico.assertion(lifetime: 3601))
            #expect(try mapped(answer).unicoCode == "1.2.5")
            #expect(try await unico.postAssertion(unico.assertion(lifetime: 3600)).status == 200)
        }
    }

    /// The token endpoint's answer as the client would report it.
    func mapped(_ answer: (status: Int, body: JSONValue?)) throws -> HumanTokenAPIError {
        let body = try JSONEncoder().encode(answer.body ?? .null)
        return HumanTokenAPIError.fromTokenEndpoint(
            HTTPExchange.Response(status: answer.status, headers: [:], body: body), now: Date())
    }
}
