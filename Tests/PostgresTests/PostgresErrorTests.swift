import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct PostgresErrorTests {
    @Test func sqlStatesMapToStableCodes() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.query("CREATE TABLE items (id int PRIMARY KEY, n int NOT NULL CHECK (n > 0))")
            try await db.owner.query("INSERT INTO items VALUES (1, 1)")
            let cases: [(PostgresQuery, PostgresError.Code, String)] = [
                ("INSERT INTO items VALUES (1, 1)", .uniqueViolation, "23505"),
                ("INSERT INTO items VALUES (2, 0)", .checkViolation, "23514"),
                ("INSERT INTO items VALUES (3, NULL)", .notNullViolation, "23502"),
                ("SELEC 1", .syntaxError, "42601"),
                ("SELECT * FROM missing_table", .undefinedTable, "42P01"),
                ("SELECT 1 / 0", .invalidInput, "22012"),
                ("SELECT 'x'::int", .invalidInput, "22P02"),
            ]
            for (query, code, state) in cases {
                let error = await captureError { try await db.owner.query(query) } as? PostgresError
                #expect(error?.code == code, "\(query.sql)")
                #expect(error?.sqlState == state, "\(query.sql)")
            }
            let unique = await captureError { try await db.owner.query("INSERT INTO items VALUES (1, 1)") } as? PostgresError
            #expect(unique?.constraint == "items_pkey")
        }
    }

    @Test func malformedURLIsRejectedBeforeConnecting() {
        for url in ["postgresql://u@h/db?bogus=1", "host=x port", "postgresql://[::1/db", "", "nonsense=1"] {
            #expect(throws: PostgresError.self) { try PostgresConfiguration(url) }
        }
    }

    @Test func unreachableServerIsAConnectionError() async throws {
        let client = try PostgresClient(url: "postgresql://journeys_app@127.0.0.1:1/journeys?connect_timeout=2")
        defer { client.close() }
        let error = await captureError { try await client.query("SELECT 1") } as? PostgresError
        #expect(error?.code == .connectionFailed)
        #expect(error?.message.contains("could not connect") == true)
    }

    @Test func wrongPasswordIsAnAuthenticationError() async throws {
        // A database of its own on a permit's cluster: slot 0's `journeys` database is dropped and
        // recreated by command tests.
        try await TestDatabase.with { db in
            let url = "postgresql://journeys_app:wrong-password@127.0.0.1:\(db.status.port)/\(db.name)"
            let client = try PostgresClient(url: url)
            defer { client.close() }
            let error = await captureError { try await client.query("SELECT 1") } as? PostgresError
            #expect(error?.code == .authenticationFailed)
            #expect(error?.description.contains("wrong-password") == false)
            let password = try db.cluster.password(for: "journeys_app")
            let good = try PostgresClient(url: "postgresql://journeys_app:\(password)@127.0.0.1:\(db.status.port)/\(db.name)")
            defer { good.close() }
            #expect(try await good.query("SELECT 1").first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func configurationRedactsThePassword() throws {
        let configuration = try PostgresConfiguration("postgresql://u:s3cret@localhost:5432/db")
        #expect(!configuration.redacted.contains("s3cret"))
        #expect(configuration.option("user") == "u")
        #expect(configuration.option("port") == "5432")
    }
}
