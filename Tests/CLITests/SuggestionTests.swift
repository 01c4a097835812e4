@testable import CLI
import Testing

@Suite("Suggestions")
struct SuggestionTests {
    @Test func editDistanceCountsCharacterEdits() {
        #expect(Suggestion.editDistance("stream", "stream") == 0)
        #expect(Suggestion.editDistance("strem", "stream") == 1)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }

    @Test func suggestsCloseNamesAndUniquePrefixes() {
        let names = ["stream", "type", "data", "expected-version"]
        #expect(Suggestion.closest(to: "tpye", among: names) == "type")
        #expect(Suggestion.closest(to: "expected", among: names) == "expected-version")
        #expect(Suggestion.closest(to: "zzzz", among: names) == nil)
        #expect(Suggestion.closest(to: "", among: names) == nil)
    }
}
