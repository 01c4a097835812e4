import Foundation
import Testing
@testable import HumanTokenAPI

/// A 401 on an API call refreshes the access token once and retries once.
@Suite("Token refresh against the emulator")
struct TokenRefreshTests {
    @Test func aRevokedAccessTokenIsReplacedOnce() async throws {
        try await withEmulator { unico in
            let client = try unico.client()
            let created = try await client.createProcess(Samples.minimalRequest())
            unico.emulator.revokeAccessTokens()
            #expect(try await client.getProcess(created.id).state == .created)
            #expect(client.tokens.fetchCount == 2)
            unico.emulator.revokeAccessTokens()
            #expect(try await client.createProcess(Samples.minimalRequest(), priority: .background).id != created.id)
            #expect(client.tokens.fetchCount == 3)
        }
    }

    @Test func anAccessTokenTheEmulatorNoLongerAcceptsIsReplacedOnce() async throws {
        try await withEmulator(accessTokenLifetime: 60) { unico in
            // The client believes its token is good for an hour; the emulator's clock says otherwise.
            let client = try unico.client(unico.configuration(tokenRefreshMargin: 0))
            let created = try await client.createProcess(Samples.minimalRequest())
            try #require(unico.clock).advance(by: 120)
            let snapshot = try await client.getProcess(created.id)
            #expect(snapshot.id == created.id)
            #expect(client.tokens.fetchCount == 2)
            _ = try await client.getProcess(created.id)
            #expect(client.tokens.fetchCount == 2)
        }
    }
}
