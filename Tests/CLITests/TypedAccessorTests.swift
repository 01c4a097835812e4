@testable import CLI
import Foundation
import Testing

@Suite("Typed accessors")
struct TypedAccessorTests {
    private func arguments(_ options: [OptionSpec], _ words: [String]) throws -> ParsedArguments {
        let configuration = CommandConfiguration(name: "tool", summary: "", options: options)
        return try CommandParser.parseArguments(words, for: configuration, commandPath: ["tool"])
    }

    private let value = OptionSpec("value", valueName: "V", help: "")

    @Test func integersAndDoubles() throws {
        #expect(try arguments([value], ["--value", "-42"]).int("value") == -42)
        #expect(try arguments([value], ["--value", "2.5"]).double("value", in: 0...10) == 2.5)
        #expect(throws: UsageError.self) { try arguments([value], ["--value", "2.5"]).int("value") }
        #expect(throws: UsageError.self) { try arguments([value], ["--value", "nan"]).double("value") }
        let error = #expect(throws: UsageError.self) { try arguments([value], ["--value", "11"]).double("value", in: 0...10) }
        #expect(error?.message == "invalid value '11' for '--value': expected a number in 0.0...10.0")
    }

    @Test func optionalVariantsAreNilWhenAbsent() throws {
        let empty = try arguments([value], [])
        #expect(try empty.optionalInt("value") == nil)
        #expect(try empty.optionalDouble("value") == nil)
        #expect(try empty.optionalUUID("value") == nil)
        #expect(try empty.optionalDate("value") == nil)
        #expect(try empty.optionalChoice("value", as: ReportFormat.self) == nil)
        let error = #expect(throws: UsageError.self) { try empty.int("value") }
        #expect(error?.message == "missing required option '--value'")
    }

    @Test func defaultsAreConverted() throws {
        let withDefault = OptionSpec("value", valueName: "N", help: "", defaultValue: "7")
        #expect(try arguments([withDefault], []).int("value") == 7)
    }

    @Test func uuids() throws {
        let id = UUID()
        #expect(try arguments([value], ["--value", id.uuidString.lowercased()]).uuid("value") == id)
    }

    @Test func choices() throws {
        #expect(try arguments([value], ["--value", "csv"]).choice("value") == ReportFormat.csv)
        #expect(try arguments([value], ["--value", "no-stream"]).choice("value") == ExpectedVersion.noStream)
    }

    @Test func datesAndTimestamps() throws {
        let day = try arguments([value], ["--value", "2024-05-01"]).date("value")
        #expect(day == Date(timeIntervalSince1970: 1_714_521_600))
        let utc = try arguments([value], ["--value", "2024-05-01T12:30:00Z"]).date("value")
        #expect(utc == Date(timeIntervalSince1970: 1_714_566_600))
        let offset = try arguments([value], ["--value", "2024-05-01T09:30:00-03:00"]).date("value")
        #expect(offset == utc)
        let fractional = try arguments([value], ["--value", "2024-05-01T12:30:00.250Z"]).date("value")
        #expect(abs(fractional.timeIntervalSince(utc) - 0.25) < 0.001)
        #expect(throws: UsageError.self) { try arguments([value], ["--value", "2024-13-01"]).date("value") }
        for bad in ["2024-05-01 12:30", "2024-05-01T12:30Z", "2024-02-30", "2024-05-01T12:30:00", "20240501"] {
            #expect(throws: UsageError.self, "\(bad)") { try arguments([value], ["--value", bad]).date("value") }
        }
    }

    @Test func positionalsAreNamedWithAngleBrackets() throws {
        let configuration = CommandConfiguration(
            name: "tool", summary: "", positionals: [PositionalSpec("count", help: "")])
        let parsed = try CommandParser.parseArguments(["x"], for: configuration, commandPath: ["tool"])
        let error = #expect(throws: UsageError.self) { try parsed.int("count") }
        #expect(error?.message == "invalid value 'x' for '<count>': expected an integer")
    }
}
