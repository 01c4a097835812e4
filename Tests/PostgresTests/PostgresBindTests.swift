import Foundation
import JourneyTesting
import Postgres
import Testing

@Suite struct PostgresBindTests {
    @Test func textValuesRoundTripIncludingInjectionStrings() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let values = ["plain", "O'Brien", "'; DROP TABLE pg_class; --", "back\\slash", "\"quoted\"", "ação 🧪", "", "$1"]
            for value in values {
                let row = try await db.app.query("SELECT \(value)::text AS v, length(\(value)) AS n").first
                #expect(try row?.decode("v", as: String.self) == value)
                #expect(try row?.decode("n", as: Int.self) == value.count)
            }
        }
    }

    @Test func typedValuesRoundTrip() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let id = UUID()
            let when = Date(timeIntervalSince1970: 1_790_000_000.123456)
            let bytes = Data((0...255).map { UInt8($0) })
            let json = JSONB(text: #"{"a": [1, 2.5, "x"], "b": null}"#)
            let row = try await db.app.query(
                """
                SELECT \(Int64.max)::bigint, \(Int64.min)::bigint, \(true)::bool, \(false)::bool, \(id)::uuid,
                       \(when)::timestamptz, \(json)::jsonb, \(bytes)::bytea, \(nullable: Optional<String>.none)::text, \(2.5)::float8
                """
            ).first!
            #expect(try row.decode(0, as: Int64.self) == Int64.max)
            #expect(try row.decode(1, as: Int64.self) == Int64.min)
            #expect(try row.decode(2, as: Bool.self) == true)
            #expect(try row.decode(3, as: Bool.self) == false)
            #expect(try row.decode(4, as: UUID.self) == id)
            let decoded = try row.decode(5, as: Date.self)
            #expect(abs(decoded.timeIntervalSince1970 - when.timeIntervalSince1970) < 0.000_001)
            #expect(try row.decode(6, as: JSONB.self).text == #"{"a": [1, 2.5, "x"], "b": null}"#)
            #expect(try row.decode(7, as: Data.self) == bytes)
            #expect(try row.decode(8, as: String?.self) == nil)
            #expect(try row.decode(9, as: Double.self) == 2.5)
        }
    }

    @Test func timestampsKeepMicrosecondsInOtherTimeZones() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let text = try await db.app.withConnection { connection in
                try connection.execute(unsafeSQL: "SET TimeZone = 'America/Sao_Paulo'")
                let row = try connection.query("SELECT '2026-11-29 12:00:00.000001+00'::timestamptz").first!
                return try row.decode(0, as: Date.self)
            }
            #expect(abs(text.timeIntervalSince1970 - 1_795_953_600.000001) < 0.000_01)
        }
    }

    @Test func arraysBindWithQuotingAndNulls() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let values: [String?] = ["a,b", "c\"d", "e\\f", nil, "{g}", "", "NULL", " padded ", "ação 🧪", "\\\"\\"]
            let rows = try await db.app.query("SELECT unnest(\(values)::text[]) AS v")
            #expect(try rows.map { try $0.decode(0, as: String?.self) } == values)
            let documents = [JSONB(text: #"{"a": "x\"y", "b": "c\\d"}"#), JSONB(text: "[]")]
            let decoded = try await db.app.query("SELECT unnest(\(documents)::jsonb[])::text")
            #expect(try decoded.map { try $0.decode(0, as: String.self) } == [#"{"a": "x\"y", "b": "c\\d"}"#, "[]"])
            let empty: [String] = []
            #expect(try await db.app.query("SELECT cardinality(\(empty)::text[])").first?.decode(0, as: Int.self) == 0)
        }
    }

    @Test func uuidsBindInTheirCanonicalLowerCaseForm() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let ids = (0..<50).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
            for id in ids { #expect(id.postgresText == id.uuidString.lowercased()) }
            let rows = try await db.app.query("SELECT unnest(\(ids)::uuid[])::text")
            #expect(try rows.map { try $0.decode(0, as: String.self) } == ids.map { $0.uuidString.lowercased() })
            let decoded = try await db.app.query("SELECT unnest(\(ids)::uuid[])")
            #expect(try decoded.map { try $0.decode(0, as: UUID.self) } == ids)
            for malformed in [
                "", "not-a-uuid", "0123456789abcdef0123456789abcdef0123", "01234567-89ab-cdef-0123-456789abcdeg",
                "01234567-89ab-cdef-0123+456789abcdef", "01234567-89AB-CDEF-0123-456789ABCDEF0",
            ] {
                #expect(UUID(postgresText: malformed) == nil, "\(malformed)")
            }
            #expect(
                UUID(postgresText: "01234567-89AB-CDEF-0123-456789ABCDEF")
                    == UUID(uuidString: "01234567-89ab-cdef-0123-456789abcdef"))
            let bytes = Data((0...255).map(UInt8.init))
            #expect(try await db.app.query("SELECT \(bytes)::bytea").first?.decode(0, as: Data.self) == bytes)
            #expect(Data(postgresText: "\\x0g") == nil && Data(postgresText: "\\x012") == nil)
        }
    }

    @Test func nullIntoNonOptionalIsADecodingError() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let row = try await db.app.query("SELECT NULL::int AS n").first!
            let error = await captureError { try row.decode("n", as: Int.self) }
            #expect((error as? PostgresError)?.code == .decodingFailed)
        }
    }
}
