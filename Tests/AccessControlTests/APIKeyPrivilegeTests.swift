import AccessControl
import Foundation
import JourneyTesting
import Postgres
import Testing

/// What the schema lets the application role do to `api_keys`, tried directly in SQL.
@Suite struct APIKeyPrivilegeTests {
    @Test func theAppRoleCannotDeleteKeysOrChangeSecretsScopesOrNames() async throws {
        try await TestDatabase.with { db in
            let (key, _) = try await APIKeyStore(client: db.app).create(name: "k", scopes: [.reportsRead])
            let refused: [PostgresQuery] = [
                "DELETE FROM api_keys WHERE id = \(key.id)",
                "TRUNCATE api_keys",
                "UPDATE api_keys SET secret_hash = sha256('guess'::bytea) WHERE id = \(key.id)",
                "UPDATE api_keys SET scopes = '{admin}' WHERE id = \(key.id)",
                "UPDATE api_keys SET name = 'other' WHERE id = \(key.id)",
                "UPDATE api_keys SET prefix = 'aaaaaaaa' WHERE id = \(key.id)",
            ]
            for statement in refused {
                let error = await #expect(throws: PostgresError.self) { try await db.app.query(statement) }
                #expect(error?.code == .insufficientPrivilege, "\(statement.sql)")
            }
            let row = try #require(try await db.owner.query("SELECT array_to_string(scopes, ',') AS s, name FROM api_keys").first)
            #expect(try row.decode("s", as: String.self) == "reports:read")
            #expect(try row.decode("name", as: String.self) == "k")
            try await db.app.query(
                "UPDATE api_keys SET last_used_at = now(), webhook_url = 'https://example.test/hook' WHERE id = \(key.id)")
        }
    }

    @Test func aRevocationIsFinalEvenForTheOwner() async throws {
        try await TestDatabase.with { db in
            let store = APIKeyStore(client: db.app)
            let (key, plaintext) = try await store.create(name: "k", scopes: [.admin])
            try await store.revoke(key.prefix)
            for client in [db.app, db.owner] {
                for statement: PostgresQuery in [
                    "UPDATE api_keys SET revoked_at = NULL WHERE id = \(key.id)",
                    "UPDATE api_keys SET revoked_at = revoked_at + interval '1 day' WHERE id = \(key.id)",
                ] {
                    let error = await #expect(throws: PostgresError.self) { try await client.query(statement) }
                    #expect(error?.code == .insufficientPrivilege)
                }
            }
            #expect(await captureError { try await store.authenticate(authorizationHeader: "Bearer \(plaintext)") } != nil)
        }
    }

    @Test func theTableRefusesUnknownScopesAndMalformedRows() async throws {
        try await TestDatabase.with { db in
            let hash = "sha256('x'::bytea)"
            let rows: [(String, String)] = [
                ("ARRAY['journeys:delete']", "aaaaaaaa"), ("ARRAY[]::text[]", "aaaaaaab"),
                ("ARRAY['admin', NULL]", "aaaaaaac"), ("ARRAY['admin']", "AAAAAAAA"),
            ]
            for (scopes, prefix) in rows {
                let error = await #expect(throws: PostgresError.self) {
                    try await db.owner.query(
                        PostgresQuery(
                            unsafeSQL: """
                                INSERT INTO api_keys (id, name, prefix, secret_hash, scopes)
                                VALUES (gen_random_uuid(), 'n', '\(prefix)', \(hash), \(scopes))
                                """))
                }
                #expect(error?.code == .checkViolation, "\(scopes) \(prefix)")
            }
        }
    }
}
