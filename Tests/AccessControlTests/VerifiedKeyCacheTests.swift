import AccessControl
import Foundation
import JourneyTesting
import Postgres
import Testing

/// A key that authenticated is trusted for `verifiedKeyLifetime` without reading `api_keys`.
@Suite struct VerifiedKeyCacheTests {
    @Test func aKeyRevokedElsewhereStopsWithinTheLifetimeAndOneRevokedHereAtOnce() async throws {
        try await TestDatabase.with { db in
            let clock = TestClock(Date(timeIntervalSince1970: 1_750_000_000))
            let serving = APIKeyStore(client: db.app, now: { clock.now() })
            // Another process (`journeys keys revoke`): a store of its own.
            let elsewhere = APIKeyStore(client: db.app, now: { clock.now() })
            let (key, plaintext) = try await serving.create(name: "partner", scopes: [.journeysWrite])
            let bearer = "Bearer \(plaintext)"
            #expect(try await serving.authenticate(authorizationHeader: bearer).keyID == key.id)

            try await elsewhere.revoke(key.prefix)
            clock.advance(by: 4.9)
            #expect(
                try await serving.authenticate(authorizationHeader: bearer).keyID == key.id,
                "within the lifetime the verified key is not read again")
            clock.advance(by: 0.2)
            let late = await captureError { try await serving.authenticate(authorizationHeader: bearer) }
            #expect(late as? AccessError == .invalidCredentials, "past the lifetime the revocation is seen")

            let (other, otherText) = try await serving.create(name: "other", scopes: [.journeysRead])
            #expect(try await serving.authenticate(authorizationHeader: "Bearer \(otherText)").keyID == other.id)
            try await serving.revoke(other.id.uuidString)
            let atOnce = await captureError { try await serving.authenticate(authorizationHeader: "Bearer \(otherText)") }
            #expect(atOnce as? AccessError == .invalidCredentials, "a key revoked through this store stops at once")
        }
    }

    @Test func aLifetimeOfZeroReadsTheTableOnEveryRequest() async throws {
        try await TestDatabase.with { db in
            let serving = APIKeyStore(client: db.app, configuration: .init(verifiedKeyLifetime: 0))
            let (key, plaintext) = try await serving.create(name: "partner", scopes: [.journeysWrite])
            #expect(try await serving.authenticate(authorizationHeader: "Bearer \(plaintext)").keyID == key.id)
            try await APIKeyStore(client: db.app).revoke(key.prefix)
            let error = await captureError { try await serving.authenticate(authorizationHeader: "Bearer \(plaintext)") }
            #expect(error as? AccessError == .invalidCredentials)
        }
    }

    @Test func aWrongSecretIsNeverAnsweredFromTheCache() async throws {
        try await TestDatabase.with { db in
            let serving = APIKeyStore(client: db.app)
            let (_, plaintext) = try await serving.create(name: "partner", scopes: [.journeysWrite])
            _ = try await serving.authenticate(authorizationHeader: "Bearer \(plaintext)")
            let wrong = String(plaintext.dropLast()) + (plaintext.hasSuffix("A") ? "B" : "A")
            let error = await captureError { try await serving.authenticate(authorizationHeader: "Bearer \(wrong)") }
            #expect(error as? AccessError == .invalidCredentials)
        }
    }
}
