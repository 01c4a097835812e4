import AccessControl
import Cryptography
import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct APIKeyStoreTests {
    @Test func createAuthenticateAndRevokeRoundTrip() async throws {
        try await TestDatabase.with { db in
            let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
            let store = APIKeyStore(client: db.app, now: { clock.now() })
            let (key, plaintext) = try await store.create(
                name: "  partner backend ", scopes: [.journeysWrite, .journeysRead, .journeysWrite])
            #expect(key.name == "partner backend")
            #expect(key.scopes == [.journeysWrite, .journeysRead])
            #expect(plaintext.hasPrefix("jk_\(key.prefix)_"))
            #expect(key.createdAt == clock.now() && key.lastUsedAt == nil && !key.isRevoked)

            let principal = try await store.authenticate(authorizationHeader: "Bearer \(plaintext)")
            #expect(
                principal
                    == Principal(
                        keyID: key.id, name: "partner backend", prefix: key.prefix,
                        scopes: [.journeysWrite, .journeysRead]))
            #expect(principal.actor == "api-key:\(key.prefix)")
            #expect(try await store.authenticate(authorizationHeader: nil, apiKeyHeader: plaintext) == principal)

            clock.advance(by: 10)
            let revoked = try await store.revoke(key.id.uuidString)
            #expect(revoked.revokedAt == clock.now())
            let error = await #expect(throws: AccessError.self) {
                try await store.authenticate(authorizationHeader: "Bearer \(plaintext)")
            }
            #expect(error == AccessError.invalidCredentials)

            clock.advance(by: 10)
            let again = try await store.revoke(" \(key.prefix.uppercased()) ")
            #expect(again.revokedAt == revoked.revokedAt, "revoking twice keeps the first time")
            #expect(try await store.list().map(\.id) == [key.id])
        }
    }

    @Test func unknownRevokedAndMalformedKeysGetTheSameAnswer() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            let (_, live) = try await store.create(name: "live", scopes: [.admin])
            let (revokedKey, revoked) = try await store.create(name: "revoked", scopes: [.admin])
            try await store.revoke(revokedKey.prefix)
            let secretOfLive = live.dropFirst(12)
            let headers: [(String?, String?)] = [
                ("Bearer jk_abcdefgh_" + secretOfLive, nil),  // unknown prefix
                ("Bearer \(revoked)", nil),  // revoked
                ("Bearer " + live.prefix(12) + revoked.dropFirst(12), nil),  // known prefix, wrong secret
                ("Bearer \(live)x", nil),  // malformed
                ("Bearer not-a-key", nil),
                ("Basic \(live)", nil),  // wrong scheme
                ("Bearer", nil),
                (nil, "jk_nope"),
                ("Bearer \(live)", live),  // two credentials
            ]
            for (authorization, apiKey) in headers {
                let error = await #expect(throws: AccessError.self) {
                    try await store.authenticate(authorizationHeader: authorization, apiKeyHeader: apiKey)
                }
                #expect(error == AccessError.invalidCredentials, "\(authorization?.prefix(20) ?? "nil")")
                #expect(error?.httpStatus == 401 && error?.code == .unauthorized)
                #expect(error?.message == "the API key is not valid")
            }
            _ = try await store.authenticate(authorizationHeader: "Bearer \(live)")
        }
    }

    @Test func missingCredentialsAre401() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            for (authorization, apiKey) in [(nil, nil), ("", nil), ("   ", ""), (nil, " ")] as [(String?, String?)] {
                let error = await #expect(throws: AccessError.self) {
                    try await store.authenticate(authorizationHeader: authorization, apiKeyHeader: apiKey)
                }
                #expect(error == AccessError.missingCredentials)
                #expect(error?.httpStatus == 401 && error?.code == .unauthorized)
            }
        }
    }

    @Test func scopesOfAnAuthenticatedKeyAreEnforced() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            let (_, reader) = try await store.create(name: "reports", scopes: [.reportsRead])
            let (_, admin) = try await store.create(name: "ops", scopes: [.admin])
            let readerPrincipal = try await store.authenticate(authorizationHeader: "Bearer \(reader)")
            try readerPrincipal.require(.reportsRead)
            let error = try #require(throws: AccessError.self) { try readerPrincipal.require(.journeysWrite) }
            #expect(error.httpStatus == 403 && error.message.contains("journeys:write"))
            let adminPrincipal = try await store.authenticate(authorizationHeader: "Bearer \(admin)")
            for scope in Scope.allCases { try adminPrincipal.require(scope) }
        }
    }

    @Test func theSecretIsNotStoredInPlaintext() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            let (_, plaintext) = try await store.create(name: "scan me", scopes: [.journeysRead])
            let secret = String(plaintext.dropFirst(12))
            let secretBytes = try #require(Base64URL.decode(secret))
            let dump = try await db.superuser.query("SELECT t::text FROM api_keys t")
            let text = try dump.map { try $0.decode(0, as: String.self) }.joined(separator: "\n")
            #expect(!text.isEmpty)
            for needle in [plaintext, secret, String(secret.prefix(16)), Hex.encode(secretBytes)] {
                #expect(!text.contains(needle))
            }
            let hash = try await db.superuser.query("SELECT secret_hash FROM api_keys").first?.decode(0, as: Data.self)
            #expect(hash == SHA256.hash(plaintext))
        }
    }

    @Test func lastUseIsTouchedAtMostOnceAMinute() async throws {
        try await TestDatabase.with { db in
            let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
            let store = APIKeyStore(client: db.app, now: { clock.now() })
            let (key, plaintext) = try await store.create(name: "busy", scopes: [.journeysRead])
            func lastUsed() async throws -> Date? { try await store.list().first { $0.id == key.id }?.lastUsedAt }

            _ = try await store.authenticate(authorizationHeader: "Bearer \(plaintext)")
            let first = clock.now()
            #expect(try await lastUsed() == first)
            clock.advance(by: 59)
            _ = try await store.authenticate(authorizationHeader: "Bearer \(plaintext)")
            #expect(try await lastUsed() == first)
            clock.advance(by: 2)
            _ = try await store.authenticate(authorizationHeader: "Bearer \(plaintext)")
            #expect(try await lastUsed() == clock.now())

            let wrong = String(plaintext.prefix(12)) + String(repeating: "A", count: 43)
            clock.advance(by: 120)
            _ = await captureError { try await store.authenticate(authorizationHeader: "Bearer \(wrong)") }
            #expect(try await lastUsed() == clock.now().addingTimeInterval(-120), "a failed attempt does not touch")
        }
    }

    @Test func badNamesScopesAndReferencesAreRefused() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            for name in ["", "   ", String(repeating: "n", count: 101), "two\nlines"] {
                let error = await #expect(throws: AccessError.self) { try await store.create(name: name, scopes: [.admin]) }
                #expect(error?.code == .invalidArgument, "\(name.prefix(10))")
            }
            let noScope = await #expect(throws: AccessError.self) { try await store.create(name: "x", scopes: []) }
            #expect(
                noScope?.message.contains(
                    "journeys:write, journeys:read, reports:read, subjects:admin, human-token:read, webhooks:admin, admin")
                    == true)
            _ = try await store.create(name: String(repeating: "n", count: 100), scopes: [.admin])

            let malformed = await #expect(throws: AccessError.self) { try await store.revoke("jk_secret_material") }
            #expect(malformed?.code == .invalidArgument && malformed?.message.contains("secret") == false)
            for reference in [UUID().uuidString, "zzzzzzzz"] {
                let missing = await #expect(throws: AccessError.self) { try await store.revoke(reference) }
                #expect(missing?.code == .keyNotFound && missing?.httpStatus == 404)
            }
        }
    }

    @Test func listShowsEveryKeyOldestFirstWithoutSecrets() async throws {
        try await TestDatabase.with { db in
            let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
            let store = APIKeyStore(client: db.app, now: { clock.now() })
            var created: [APIKey] = []
            for name in ["a", "b", "c"] {
                created.append(try await store.create(name: name, scopes: [.reportsRead]).key)
                clock.advance(by: 1)
            }
            try await store.revoke(created[1].prefix)
            let listed = try await store.list()
            #expect(listed.map(\.name) == ["a", "b", "c"])
            #expect(listed.map(\.isRevoked) == [false, true, false])
            #expect(Set(listed.map(\.prefix)).count == 3)
        }
    }
}
