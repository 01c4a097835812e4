import AccessControl
import Foundation
import JourneyTesting
import Testing

/// `journeys keys` end to end, in-process, against a test database.
@Suite struct KeysCommandTests {
    /// The value printed after `label:` by `keys create`.
    func field(_ label: String, in output: String) throws -> String {
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix(label + ":") })
        return line.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
    }

    @Test func createListAndRevokeAKey() async throws {
        try await TestDatabase.with { db in
            // A running service's store: it trusts a verified key for 5 s (its clock is moved below).
            let clock = TestClock()
            let store = APIKeyStore(client: db.app, now: { clock.now() })

            let created = await journeys(
                [
                    "keys", "create", "--name", "partner backend",
                    "--scope", "journeys:write", "--scope", "journeys:read",
                ], database: db)
            #expect(created.code == 0, "\(created.error)")
            let key = try field("key", in: created.output)
            let id = try field("id", in: created.output)
            let prefix = try field("prefix", in: created.output)
            #expect(key.hasPrefix("jk_\(prefix)_"))
            #expect(created.output.contains("shown only this once"))
            let principal = try await store.authenticate(authorizationHeader: "Bearer \(key)")
            #expect(principal.keyID.uuidString.lowercased() == id)
            #expect(principal.scopes == [.journeysWrite, .journeysRead])

            let listed = await journeys(["keys", "list"], database: db)
            #expect(listed.code == 0, "\(listed.error)")
            for column in ["ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "REVOKED"] {
                #expect(listed.output.contains(column))
            }
            #expect(listed.output.contains(id) && listed.output.contains(prefix) && listed.output.contains("partner backend"))
            #expect(listed.output.contains("journeys:write journeys:read"))
            #expect(!listed.output.contains(key) && !listed.output.contains(String(key.dropFirst(12).prefix(12))))

            let revoked = await journeys(["keys", "revoke", prefix], database: db)
            #expect(revoked.code == 0, "\(revoked.error)")
            #expect(revoked.output.contains("revoked \(prefix)"))
            let fresh = await #expect(throws: AccessError.self) {
                try await APIKeyStore(client: db.app).authenticate(authorizationHeader: "Bearer \(key)")
            }
            #expect(fresh?.httpStatus == 401, "a process that had not verified the key refuses it at once")
            clock.advance(by: 5)
            let refused = await #expect(throws: AccessError.self) {
                try await store.authenticate(authorizationHeader: "Bearer \(key)")
            }
            #expect(refused?.httpStatus == 401, "a process that had verified it refuses it within 5 s")
            let relisted = await journeys(["keys", "list"], database: db)
            let row = try #require(relisted.output.split(separator: "\n").first { $0.contains(id) })
            #expect(!row.hasSuffix("-"), "the REVOKED column is filled: \(row)")

            let byID = await journeys(["keys", "revoke", id], database: db)
            #expect(byID.code == 0, "revoking again is harmless: \(byID.error)")
        }
    }

    @Test func badInputExitsNonZeroWithAClearMessage() async throws {
        try await TestDatabase.with { db in
            let cases: [([String], Int32, String)] = [
                (
                    ["keys", "create", "--name", "x", "--scope", "journeys:delete"], 64,
                    "unknown scope 'journeys:delete' for --scope; allowed: journeys:write, journeys:read, reports:read, subjects:admin, human-token:read, webhooks:admin, admin"
                ),
                (["keys", "create", "--name", "x"], 64, "give at least one --scope"),
                (["keys", "create", "--scope", "admin"], 64, "missing required option '--name"),
                (["keys", "create", "--name", " ", "--scope", "admin"], 64, "--name must not be empty"),
                (["keys", "create", "--name", String(repeating: "n", count: 101), "--scope", "admin"], 64, "at most 100"),
                (["keys", "revoke", "abcdefgh"], 1, "no API key has the id or prefix 'abcdefgh'"),
                (["keys", "revoke", UUID().uuidString], 1, "no API key"),
                (["keys", "revoke", "not a key"], 64, "expected a key id (UUID) or prefix"),
                (["keys", "revoke"], 64, "'<key>'"),
            ]
            for (arguments, code, message) in cases {
                let result = await journeys(arguments, database: db)
                #expect(result.code == code, "\(arguments): \(result.error)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            }
            let empty = await journeys(["keys", "list"], database: db)
            #expect(empty.code == 0 && empty.output.contains("no API keys"))
            for path in [
                ["keys", "--help"], ["keys", "create", "--help"], ["keys", "list", "-h"], ["keys", "revoke", "--help"],
            ] {
                let help = await journeys(path)
                #expect(help.code == 0 && help.output.contains("Usage:"), "\(path)")
            }
        }
    }
}
