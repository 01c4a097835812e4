import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
@testable import Projections
import Testing

/// The one row writer's two formats: the live upsert's JSON and the rebuild's `COPY` text hold
/// the same value in every column, and the rows fill every column of the tables.
@Suite struct ReadModelRowTests {
    @Test func theJSONAndTheCopyTextHoldEqualValues() throws {
        let states = try JourneyStateJSONTests.states()
        let stateRows = states.enumerated().map {
            JourneyStateRow(
                id: "j-\($0.offset)-" + JourneyStateJSONTests.texts[$0.offset % 5], state: $0.element,
                position: Int64($0.offset) * 1_000_003)
        }
        let attemptRows = stateRows.flatMap { row in row.state.attempts.map { JourneyAttemptRow(journeyID: row.id, attempt: $0) }
        }
        #expect(stateRows.count > 40)
        #expect(attemptRows.count > 40)
        // Every column in a shuffled order, plus one neither knows (NULL).
        let stateColumns = ["extra"] + JourneyStateRow.columns.map(\.name.description).reversed()
        let attemptColumns = JourneyAttemptRow.columns.map(\.name.description).reversed() + ["extra"]
        var copy = ReadModelCopy(columns: .init(state: stateColumns, attempts: attemptColumns))
        for row in stateRows { try copy.append(id: row.id, state: row.state, position: row.position) }
        let copied = copy.take()
        try Self.expectEqual(
            json: ReadModelRowsJSON.states(stateRows), copy: copied.state, columns: stateColumns, rows: stateRows.count)
        try Self.expectEqual(
            json: ReadModelRowsJSON.attempts(attemptRows), copy: copied.attempts, columns: attemptColumns,
            rows: attemptRows.count)
        #expect(try ReadModelRowsJSON.states([]) == "[]")
    }

    @Test func theRollupsColumnsAreTheSameValuesFewerMembers() throws {
        let rows = try JourneyStateJSONTests.states().enumerated().map {
            JourneyStateRow(id: "j-\($0.offset)", state: $0.element, position: Int64($0.offset))
        }
        let full = try Self.objects(ReadModelRowsJSON.states(rows))
        let slim = try Self.objects(ReadModelRowsJSON.rollupStates(rows))
        #expect(slim.count == full.count)
        for (small, large) in zip(slim, full) {
            #expect(NSDictionary(dictionary: small) == NSDictionary(dictionary: large.filter { small.keys.contains($0.key) }))
        }
        #expect(
            Set(slim.flatMap(\.keys)) == [
                "journey_id", "status", "environment", "flow", "purpose", "current_attempt",
                "started_at", "callback_at", "result_at", "outcome", "tenant",
            ])
        let attempts = rows.flatMap { row in row.state.attempts.map { JourneyAttemptRow(journeyID: row.id, attempt: $0) } }
        let slimAttempts = try Self.objects(ReadModelRowsJSON.rollupAttempts(attempts))
        let fullAttempts = try Self.objects(ReadModelRowsJSON.attempts(attempts))
        for (small, large) in zip(slimAttempts, fullAttempts) {
            #expect(NSDictionary(dictionary: small) == NSDictionary(dictionary: large.filter { small.keys.contains($0.key) }))
        }
        #expect(Set(slimAttempts.flatMap(\.keys)).isSubset(of: JourneyAttemptRow.rollupColumns.map(\.name.description)))
    }

    @Test func theRowsAreTheTablesColumnsAndEachIsWritten() async throws {
        // A column added by a migration needs its line in JourneyStateRow / JourneyAttemptRow.
        let columns = try await TestDatabase.with { db in
            try await db.owner.withConnection { try ReadModelCopy.columns(of: .live, on: $0) }
        }
        #expect(columns.state == JourneyStateRow.columns.map(\.name.description))
        #expect(columns.attempts == JourneyAttemptRow.columns.map(\.name.description))
        // With every optional set somewhere, every column holds a value in some row.
        var stateKeys: Set<String> = []
        var attemptKeys: Set<String> = []
        for (index, state) in try JourneyStateJSONTests.states().enumerated() {
            let row = JourneyStateRow(id: "j-\(index)", state: state, position: 1)
            stateKeys.formUnion(try Self.objects(ReadModelRowsJSON.states([row])).flatMap(\.keys))
            let attempts = state.attempts.map { JourneyAttemptRow(journeyID: row.id, attempt: $0) }
            attemptKeys.formUnion(try Self.objects(ReadModelRowsJSON.attempts(attempts)).flatMap(\.keys))
        }
        #expect(stateKeys == Set(columns.state))
        #expect(attemptKeys == Set(columns.attempts))
    }

    /// Each JSON object's members against the same row's `COPY` fields: absent is NULL, a string
    /// is the field's text, a number its decimal text, an object (the state) its JSON.
    static func expectEqual(json: String, copy: PostgresCopyText, columns: [String], rows: Int) throws {
        let objects = try objects(json)
        let lines = fields(copy)
        #expect(objects.count == rows)
        #expect(lines.count == rows)
        for (object, line) in zip(objects, lines) {
            #expect(line.count == columns.count)
            #expect(Set(object.keys).isSubset(of: columns))
            for (column, field) in zip(columns, line) {
                switch object[column] {
                case nil: #expect(field == nil, "\(column)")
                case let text as String: #expect(field == text, "\(column)")
                case let number as NSNumber: #expect(field == number.stringValue, "\(column)")
                case let value?:
                    let copied = try JSONSerialization.jsonObject(with: Data(try #require(field).utf8)) as? NSObject
                    #expect(copied == value as? NSObject, "\(column)")
                }
            }
        }
    }

    static func objects(_ json: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    /// `COPY` text's rows, each field unescaped (nil: NULL).
    static func fields(_ text: PostgresCopyText) -> [[String?]] {
        text.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map { line in
            line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map { field -> String? in
                if Array(field) == Array("\\N".utf8) { return nil }
                var out: [UInt8] = []
                var escaped = false
                for byte in field {
                    if escaped {
                        switch byte {
                        case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                        case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                        case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                        default: out.append(byte)
                        }
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else {
                        out.append(byte)
                    }
                }
                return String(decoding: out, as: UTF8.self)
            }
        }
    }
}
