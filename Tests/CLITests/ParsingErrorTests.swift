@testable import CLI
import Testing

@Suite("Parsing errors")
struct ParsingErrorTests {
    @Test func unknownOptionSuggestsTheClosestName() {
        let error = usageError(["events", "append", "--strem", "s", "--type", "T"])
        #expect(error?.code == .unknownOption)
        #expect(error?.message == "unknown option '--strem'; did you mean '--stream'?")
        #expect(error?.commandPath == ["journeys", "events", "append"])
    }

    @Test func unknownOptionWithInlineValueSuggestsByName() {
        let error = usageError(["bench", "--writer=4"])
        #expect(error?.message == "unknown option '--writer=4'; did you mean '--writers'?")
    }

    @Test func unknownOptionWithoutCloseNameHasNoSuggestion() {
        #expect(usageError(["bench", "--zzzzzz"])?.message == "unknown option '--zzzzzz'")
        #expect(usageError(["bench", "-x"])?.message == "unknown option '-x'")
    }

    @Test func optionsGivenToAGroupAreUnknown() {
        let error = usageError(["events", "--json", "append"])
        #expect(error?.code == .unknownOption)
        #expect(error?.commandPath == ["journeys", "events"])
    }

    @Test func unknownCommandSuggestsTheClosestSubcommand() {
        let error = usageError(["events", "apend"])
        #expect(error?.code == .unknownCommand)
        #expect(error?.message == "unknown command 'apend' for 'journeys events'; did you mean 'append'?")
        #expect(usageError(["hepl"])?.message == "unknown command 'hepl' for 'journeys'; did you mean 'help'?")
    }

    @Test func missingValueAtTheEnd() {
        let error = usageError(["events", "read", "--stream"])
        #expect(error?.code == .missingValue)
        #expect(error?.message == "missing value for option '--stream <S>'")
    }

    @Test func missingValueBeforeAnotherOption() {
        let error = usageError(["events", "append", "--stream", "--type", "T"])
        #expect(error?.message == "missing value for option '--stream <S>'")
    }

    @Test func missingRequiredOptionIsNamed() {
        let error = usageError(["events", "append", "--stream", "s"])
        #expect(error?.code == .missingArgument)
        #expect(error?.message == "missing required option '--type <T>'")
    }

    @Test func missingRequiredPositionalIsNamed() {
        let error = usageError(["report", "--from", "2024-05-01"])
        #expect(error?.message == "missing required argument '<name>'")
    }

    @Test func nonRepeatableOptionGivenTwice() {
        let error = usageError(["events", "read", "--stream", "a", "--stream=b"])
        #expect(error?.code == .duplicateOption)
        #expect(error?.message == "option '--stream' given more than once")
    }

    @Test func flagGivenTwiceOrWithAValue() {
        #expect(usageError(["bench", "--json", "--json"])?.message == "flag '--json' given more than once")
        #expect(usageError(["bench", "--json=yes"])?.message == "flag '--json' does not take a value")
    }

    @Test func extraPositionalIsUnexpected() {
        let error = usageError(["events", "read", "--stream", "s", "extra"])
        #expect(error?.code == .unexpectedArgument)
        #expect(error?.message == "unexpected argument 'extra'")
    }

    @Test func badIntegerNamesTheOption() {
        let error = initError(Bench.self, ["--writers", "many"])
        #expect(error?.code == .invalidValue)
        #expect(error?.message == "invalid value 'many' for '--writers': expected an integer in 1...64")
        #expect(error?.commandPath == ["bench"])
    }

    @Test func integerOutOfRangeNamesTheRange() {
        let error = initError(Bench.self, ["--writers", "0"])
        #expect(error?.message == "invalid value '0' for '--writers': expected an integer in 1...64")
    }

    @Test func badEnumListsTheAllowedValues() {
        let error = initError(Report.self, ["funnel", "--from", "2024-05-01", "--format", "xml"])
        #expect(error?.message == "invalid value 'xml' for '--format': expected one of: table, csv, json")
    }

    @Test func badUUIDAndDateNameTheOption() {
        let uuid = initError(Append.self, ["--stream", "s", "--type", "T", "--id", "123"])
        #expect(uuid?.message == "invalid value '123' for '--id': expected a UUID")
        let date = initError(Report.self, ["funnel", "--from", "May 1st"])
        #expect(date?.message.hasPrefix("invalid value 'May 1st' for '--from': expected an ISO-8601 date") == true)
    }

    @Test func readingAnUndeclaredNameIsAProgrammingError() throws {
        let (_, arguments) = try parsed(["events", "read", "--stream", "s"])
        let error = #expect(throws: CommandFailure.self) { try arguments.string("strean") }
        #expect(error?.exitCode == 70)
        #expect(error?.message == "'journeys events read' reads 'strean', which it does not declare")
        #expect(throws: CommandFailure.self) { try arguments.flag("stream") }
    }
}
