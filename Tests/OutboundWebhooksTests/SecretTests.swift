import Cryptography
import Foundation
import OutboundWebhooks
import Postgres
import Privacy
import Testing

@Suite(.serialized) struct SecretTests {
    @Test func theSecretIsNotReadableInPlainTextFromTheTable() async throws {
        try await Fixture.with { f in
            let store = WebhookEndpointStore(client: f.db.app, sealer: f.sealer, now: { f.clock.now() })
            let result = try await store.set(key: "abcdefgh", url: "https://hooks.example.com/journeys", rotateSecret: true)
            let secret = try #require(result.newSecret)
            let rows = try await f.db.superuser.query("SELECT to_jsonb(e)::text FROM webhook_endpoints e")
            let dump = try rows.map { try $0.decode(0, as: String.self) }.joined()
            for form in [
                secret.text, secret.key.base64EncodedString(), Hex.encode(secret.key),
                f.secret.text, f.secret.key.base64EncodedString(), Hex.encode(f.secret.key),
            ] {
                #expect(!dump.contains(form), "no plaintext secret in the table")
            }
            let columns = try await f.db.app.query(
                """
                SELECT column_name FROM information_schema.columns WHERE table_name = 'webhook_endpoints'
                """
            ).map { try $0.decode(0, as: String.self) }
            #expect(!columns.contains("secret") && columns.contains("secret_sealed"))

            let row = try #require(
                try await f.db.app.query(
                    """
                    SELECT secret_sealed, secret_key_id FROM webhook_endpoints WHERE id = \(result.endpoint.id)
                    """
                ).first)
            let sealed = try row.decode(0, as: Data.self)
            let keyID = try row.decode(1, as: String.self)
            #expect(keyID == "test-kek-1")
            #expect(try f.sealer.open(sealed, keyID: keyID, endpointID: result.endpoint.id) == secret)
            let otherKEK = try WebhookSecretSealer(activeKeyID: "test-kek-1", keys: ["test-kek-1": SecureRandom.bytes(32)])
            #expect(throws: WebhookError.self) { try otherKEK.open(sealed, keyID: keyID, endpointID: result.endpoint.id) }
            let moved = #expect(throws: WebhookError.self) { try f.sealer.open(sealed, keyID: keyID, endpointID: UUID()) }
            #expect(moved?.code == .secretUnreadable)
            #expect(moved.map { !"\($0)".contains(secret.text) } == true)
        }
    }

    @Test func olderKEKsStillOpenAfterARotation() throws {
        let old = SecureRandom.bytes(32)
        let before = try WebhookSecretSealer(activeKeyID: "k1", keys: ["k1": old])
        let after = try WebhookSecretSealer(activeKeyID: "k2", keys: ["k1": old, "k2": SecureRandom.bytes(32)])
        let endpoint = UUID()
        let secret = WebhookSecret.generate()
        let (sealed, keyID) = try before.seal(secret, endpointID: endpoint)
        #expect(keyID == "k1")
        #expect(try after.open(sealed, keyID: keyID, endpointID: endpoint) == secret)
        #expect(try after.seal(secret, endpointID: endpoint).keyID == "k2")
        let unknown = #expect(throws: WebhookError.self) { try before.open(sealed, keyID: "k9", endpointID: endpoint) }
        #expect(unknown?.code == .secretUnreadable)
        #expect(throws: WebhookError.self) { try WebhookSecretSealer(activeKeyID: "k3", keys: ["k1": old]) }
        #expect(throws: WebhookError.self) { try WebhookSecretSealer(activeKeyID: "k1", keys: ["k1": Data(count: 16)]) }
        #expect(!"\(after)".contains(old.base64EncodedString()))
    }

    @Test func theSealerTakesThePrivacyKEKs() throws {
        let sealer = try WebhookSecretSealer(privacy: .development())
        #expect(sealer.activeKeyID == PrivacyConfiguration.developmentKeyID)
        let secret = WebhookSecret.generate()
        let endpoint = UUID()
        let sealed = try sealer.seal(secret, endpointID: endpoint)
        #expect(
            try WebhookSecretSealer(privacy: .development()).open(sealed.sealed, keyID: sealed.keyID, endpointID: endpoint)
                == secret)
    }

    @Test func urlRules() {
        for good in [
            "https://hooks.example.com/a?b=c", "http://127.0.0.1:8080/hook", "http://localhost/x", "http://[::1]:9/x",
            "  https://example.com  ",
        ] {
            #expect((try? WebhookURL.validate(good)) != nil, "\(good)")
        }
        let bad: [(String, String)] = [
            ("", "url is empty"), ("https:///hook", "url has no host"), ("example.com/hook", "not an absolute URL"),
            ("ftp://example.com", "url must use https"),
            ("http://example.com/hook", "http is allowed for loopback hosts only"),
            ("http://127.0.0.1.example.com/", "http is allowed for loopback hosts only"),
            ("https://user:pw@example.com/", "user name or password"), ("https://example.com/#x", "fragment"),
            ("https://example.com/" + String(repeating: "a", count: 2000), "longer than 2000"),
            ("not a url", "not an absolute URL"),
        ]
        for (url, message) in bad {
            do {
                _ = try WebhookURL.validate(url)
                Issue.record("accepted \(url)")
            } catch {
                #expect(error.code == .invalidArgument)
                #expect(error.message.contains(message), "\(url): \(error.message)")
            }
        }
    }

    @Test func setKeepsOrRotatesTheSecretDisablesAndRefusesBadKeys() async throws {
        try await Fixture.with { f in
            let store = WebhookEndpointStore(client: f.db.app, sealer: f.sealer, now: { f.clock.now() })
            // The fixture's endpoint is the key's newest: set updates it and keeps its secret.
            let kept = try await store.set(key: "abcdefgh", url: "https://a.example.com/hook")
            #expect(!kept.created && kept.newSecret == nil && kept.endpoint.id == f.endpointID)
            let rotated = try await store.set(key: f.apiKeyID.uuidString, url: "https://a.example.com/hook", rotateSecret: true)
            let secret = try #require(rotated.newSecret)
            #expect(secret != f.secret)

            #expect(try await store.disable(key: "abcdefgh") == 1)
            #expect(try await store.disable(key: "abcdefgh") == 0)
            let (keyID, listed) = try await store.endpoints(key: "ABCDEFGH")
            #expect(keyID == f.apiKeyID && listed.count == 1 && !listed[0].isEnabled)
            #expect(listed[0].disabledReason == "disabled by an operator")
            let again = try await store.set(key: "abcdefgh", url: "https://b.example.com/hook")
            #expect(again.endpoint.isEnabled && again.endpoint.url == "https://b.example.com/hook" && again.newSecret == nil)

            func code(_ body: () async throws -> Void) async -> WebhookError.Code? {
                do { try await body(); return nil } catch let error as WebhookError { return error.code } catch { return nil }
            }
            #expect(await code { _ = try await store.set(key: "zzzzzzzz", url: "https://x.example.com") } == .keyNotFound)
            #expect(await code { _ = try await store.set(key: UUID().uuidString, url: "https://x.example.com") } == .keyNotFound)
            #expect(
                await code { _ = try await store.set(key: "jk_abcdefgh_secret", url: "https://x.example.com") }
                    == .invalidArgument)
            #expect(await code { _ = try await store.set(key: "abcdefgh", url: "http://x.example.com") } == .invalidArgument)
            try await f.db.app.query("UPDATE api_keys SET revoked_at = now() WHERE id = \(f.apiKeyID)")
            #expect(await code { _ = try await store.set(key: "abcdefgh", url: "https://x.example.com") } == .invalidArgument)
        }
    }
}
