import CLI
import Testing

@Suite("Declarations")
struct DeclarationTests {
    @Test func theSampleToolIsSound() {
        #expect(CommandConfiguration.problems(inTree: SampleTool.self) == [])
    }

    @Test func mistakesAreListed() {
        let configuration = CommandConfiguration(
            name: "bad",
            summary: "",
            options: [
                OptionSpec("id", valueName: "ID", help: "", defaultValue: "1", isRequired: true),
                .optional("--dashed", valueName: "X", help: ""),
            ],
            flags: [FlagSpec("id", help: ""), FlagSpec("help", help: "")],
            positionals: [
                PositionalSpec("rest", help: "", isRequired: false, isRepeatable: true),
                PositionalSpec("last", help: ""),
            ])
        #expect(
            configuration.problems == [
                "'bad': '--dashed' is not a valid argument name",
                "'bad': 'help' is reserved for --help",
                "'bad': 'id' is declared more than once",
                "'bad': repeatable argument '<rest>' is not the last",
                "'bad': required argument '<last>' follows an optional one",
                "'bad': required option '--id' has a default that is never used",
            ])
    }
}
