import AccessControl
import Foundation
import JourneyTesting
import Testing

/// `journeys tenants` and `keys create --tenant`, in-process, against a test database.
@Suite struct TenantsCommandTests {
    @Test func createsTenantsAndKeysThatBelongToThem() async throws {
        try await TestDatabase.with { db in

            let listedBefore = await journeys(["tenants", "list"], database: db)
            #expect(listedBefore.code == 0, "\(listedBefore.error)")
            #expect(listedBefore.output.contains("default"), "every deployment has the default tenant")

            let created = await journeys(["tenants", "create", "acme"], database: db)
            #expect(created.code == 0, "\(created.error)")
            #expect(created.output.contains("created tenant acme"))
            let listed = await journeys(["tenants", "list"], database: db)
            #expect(listed.output.contains("acme") && listed.output.contains("NAME"))

            let key = await journeys(
                ["keys", "create", "--name", "acme backend", "--scope", "journeys:read", "--tenant", "acme"],
                database: db)
            #expect(key.code == 0, "\(key.error)")
            #expect(key.output.contains("tenant:  acme"))
            let plaintext = try #require(key.output.split(separator: "\n").first { $0.hasPrefix("key:") })
                .dropFirst(4).trimmingCharacters(in: .whitespaces)
            let principal = try await APIKeyStore(client: db.app).authenticate(authorizationHeader: "Bearer \(plaintext)")
            #expect(principal.tenant == "acme")

            let plain = await journeys(["keys", "create", "--name", "ops", "--scope", "admin"], database: db)
            #expect(plain.code == 0 && plain.output.contains("tenant:  default"), "no --tenant: the default tenant")
            let keys = await journeys(["keys", "list"], database: db)
            #expect(keys.output.contains("TENANT"))
            let acmeRow = try #require(keys.output.split(separator: "\n").first { $0.contains("acme backend") })
            #expect(acmeRow.contains(" acme "))
        }
    }

    @Test func badTenantInputExitsNonZeroNamingIt() async throws {
        try await TestDatabase.with { db in
            _ = await journeys(["tenants", "create", "acme"], database: db)
            let cases: [([String], Int32, String)] = [
                (["keys", "create", "--name", "x", "--scope", "admin", "--tenant", "globex"], 1, "no tenant is named 'globex'"),
                (
                    ["keys", "create", "--name", "x", "--scope", "admin", "--tenant", "Bad Name"], 64,
                    "--tenant: invalid tenant name 'Bad Name'"
                ),
                (["tenants", "create", "acme"], 1, "tenant 'acme' already exists"),
                (["tenants", "create", "9lives"], 64, "invalid tenant name '9lives'"),
                (["tenants", "create", String(repeating: "a", count: 41)], 64, "1 to 40"),
                (["tenants", "create"], 64, "'<name>'"),
                (["subjects", "find", "--document", "529.982.247-25", "--tenant", "globex"], 1, "no tenant is named 'globex'"),
            ]
            for (arguments, code, message) in cases {
                let result = await journeys(arguments, database: db)
                #expect(result.code == code, "\(arguments): \(result.error)")
                #expect(result.error.contains(message), "\(arguments): \(result.error)")
            }
            for path in [["tenants", "--help"], ["tenants", "create", "--help"], ["tenants", "list", "-h"]] {
                let help = await journeys(path)
                #expect(help.code == 0 && help.output.contains("Usage:"), "\(path)")
            }
        }
    }
}
