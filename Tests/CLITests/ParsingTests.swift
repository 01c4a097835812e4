@testable import CLI
import Foundation
import Testing

@Suite("Parsing")
struct ParsingTests {
    @Test func namesTheDeepestCommandAndReadsSeparatedValues() throws {
        let (path, arguments) = try parsed(["events", "append", "--stream", "journey-1", "--type", "Started"])
        #expect(path.names == ["journeys", "events", "append"])
        #expect(arguments.commandPath == ["journeys", "events", "append"])
        #expect(try arguments.string("stream") == "journey-1")
        #expect(try arguments.string("type") == "Started")
    }

    @Test func readsInlineValuesKeepingLaterEqualsSigns() throws {
        let (_, arguments) = try parsed(["events", "append", "--stream=a=b", #"--type="#, #"--data={"k":"v=1"}"#])
        #expect(try arguments.string("stream") == "a=b")
        #expect(try arguments.string("type") == "")
        #expect(try arguments.string("data") == #"{"k":"v=1"}"#)
    }

    @Test func flagsAreFalseUntilGiven() throws {
        let plain = try parsed(["bench"]).arguments
        #expect(try plain.flag("json") == false)
        let json = try parsed(["bench", "--json"]).arguments
        #expect(try json.flag("json") == true)
    }

    @Test func defaultsFillAbsentOptionsButDoNotCountAsGiven() throws {
        let (_, arguments) = try parsed(["events", "append", "--stream", "s", "--type", "T"])
        #expect(try arguments.string("expected-version") == "any")
        #expect(try arguments.contains("expected-version") == false)
        #expect(try arguments.contains("stream"))
        #expect(try arguments.optionalString("id") == nil)
    }

    @Test func optionsAndPositionalsMixInAnyOrder() throws {
        let (_, arguments) = try parsed(["report", "--from", "2024-05-01", "funnel", "--to", "2024-06-01", "uat", "prod"])
        #expect(try arguments.string("name") == "funnel")
        #expect(try arguments.strings("filters") == ["uat", "prod"])
        #expect(try arguments.string("to") == "2024-06-01")
    }

    @Test func doubleDashEndsOptions() throws {
        let (_, arguments) = try parsed(["report", "--from", "2024-05-01", "--", "--format", "--help", "-h"])
        #expect(try arguments.string("name") == "--format")
        #expect(try arguments.strings("filters") == ["--help", "-h"])
        #expect(try arguments.string("format") == "table")
    }

    @Test func negativeNumbersAndDashAreValues() throws {
        let (_, arguments) = try parsed(["report", "--from", "2024-05-01", "-", "-12"])
        #expect(try arguments.string("name") == "-")
        #expect(try arguments.strings("filters") == ["-12"])
        let bench = try parsed(["bench", "--ratio", "-0.5"]).arguments
        #expect(try bench.string("ratio") == "-0.5")
    }

    @Test func repeatableOptionsCollectEveryValueInOrder() throws {
        let (_, arguments) = try parsed(["events", "append", "--stream", "s", "--type", "T", "--tag", "a", "--tag=b"])
        #expect(try arguments.strings("tag") == ["a", "b"])
        let none = try parsed(["events", "append", "--stream", "s", "--type", "T"]).arguments
        #expect(try none.strings("tag") == [])
    }

    @Test func absentOptionalPositionalsAreEmpty() throws {
        let (_, arguments) = try parsed(["report", "--from", "2024-05-01", "funnel"])
        #expect(try arguments.strings("filters") == [])
        #expect(try arguments.optionalString("filters") == nil)
    }

    @Test func aGroupWithoutSubcommandIsReportedAsSuch() {
        guard case .missingSubcommand(let path) = CommandParser.parse(["events"], root: SampleTool.self) else {
            Issue.record("expected a missing subcommand")
            return
        }
        #expect(path.names == ["journeys", "events"])
        guard case .missingSubcommand(let root) = CommandParser.parse([], root: SampleTool.self) else {
            Issue.record("expected a missing subcommand")
            return
        }
        #expect(root.names == ["journeys"])
    }

    @Test func parseArgumentsParsesOneCommandDirectly() throws {
        let arguments = try CommandParser.parseArguments(["--writers", "3"], for: Bench.self)
        #expect(arguments.commandPath == ["bench"])
        #expect(try Bench(arguments: arguments).writers == 3)
    }
}
