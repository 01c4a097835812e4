import Foundation
import JourneyTesting
import Postgres
import Testing

/// `COPY … FROM STDIN` in text format through `copyIn`: escaping, NULLs, errors.
@Suite struct PostgresCopyTests {
    static let awkward = [
        "plain", "tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "\\.", "ends with \\",
        "ação 🧪 日本語", "", " ", "quote ' and \" both", "\\t literally", "mixed\t\\\n\r end",
    ]

    @Test func awkwardTextNullsAndNumbersRoundTrip() async throws {
        try await TestDatabase.with(migrated: false) { db in
            var built: [(Int64, String?, Int64?)] = []
            for (index, value) in Self.awkward.enumerated() {
                let number: Int64? = index % 3 == 0 ? nil : Int64(index) * -7
                built.append((Int64(index + 1), value, number))
            }
            built += [(100, nil, nil), (101, "not null", Int64.max), (102, nil, Int64.min)]
            let rows = built
            let copied = try await db.owner.withConnection { connection in
                try connection.execute(unsafeSQL: "CREATE TABLE copied (id bigint PRIMARY KEY, t text, n bigint, j jsonb)")
                var text = PostgresCopyText()
                for (id, value, number) in rows {
                    text.append(id)
                    text.append(value)
                    text.append(number)
                    text.append(value.map { String(decoding: try! JSONEncoder().encode(["v": $0]), as: UTF8.self) })
                    text.endRow()
                }
                #expect(text.rowCount == rows.count)
                return try connection.copyIn(unsafeSQL: #"COPY copied (id, t, n, j) FROM STDIN"#, text)
            }
            #expect(copied == rows.count)
            let back = try await db.owner.query("SELECT id, t, n, j->>'v' FROM copied ORDER BY id")
            #expect(back.count == rows.count)
            for (row, expected) in zip(back, rows) {
                #expect(try row.decode(0, as: Int64.self) == expected.0)
                #expect(try row.decode(1, as: String?.self) == expected.1)
                #expect(try row.decode(2, as: Int64?.self) == expected.2)
                #expect(try row.decode(3, as: String?.self) == expected.1)
            }
        }
    }

    @Test func aRefusedRowFailsTheCopyWithTheServersMessageAndTheConnectionStaysUsable() async throws {
        try await TestDatabase.with(migrated: false) { db in
            try await db.owner.withConnection { connection in
                try connection.execute(unsafeSQL: "CREATE TABLE copied (id bigint PRIMARY KEY, n integer NOT NULL)")
                var text = PostgresCopyText()
                text.append(1); text.append(5); text.endRow()
                text.append(2); text.append("five"); text.endRow()
                do {
                    try connection.copyIn(unsafeSQL: "COPY copied (id, n) FROM STDIN", text)
                    Issue.record("a bad integer was copied")
                } catch let error as PostgresError {
                    #expect(String(describing: error).contains("integer"))
                }
                // Not a COPY statement: refused, connection fine.
                do {
                    try connection.copyIn(unsafeSQL: "SELECT 1", PostgresCopyText())
                    Issue.record("a SELECT ran as a COPY")
                } catch is PostgresError {}
                #expect(try connection.query("SELECT count(*) FROM copied").first?.decode(0, as: Int.self) == 0)
                // A transaction around a good COPY commits its rows.
                try connection.transaction { connection in
                    var good = PostgresCopyText()
                    good.append(3); good.append(7); good.endRow()
                    let copied = try connection.copyIn(unsafeSQL: "COPY copied (id, n) FROM STDIN", good)
                    #expect(copied == 1)
                }
                #expect(try connection.query("SELECT n FROM copied WHERE id = 3").first?.decode(0, as: Int.self) == 7)
            }
        }
    }
}
