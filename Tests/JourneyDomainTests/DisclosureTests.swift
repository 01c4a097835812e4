import Foundation
import JourneyDomain
import Testing

@Suite("Personal data disclosure")
struct DisclosureTests {
    static let disclosure = PersonalDataDisclosure(
        actor: "api-key:abcd2345", keyID: "k-1", fields: ["humanToken"],
        purpose: "support ticket 7", channel: "GET /v1/journeys/{id}/human-token")

    @Test("every opening of a started journey is one event; it changes only the version")
    func recordedEachTime() throws {
        var scenario = try Scenario.completed()
        let before = scenario.state
        let events = try scenario.run(.recordDisclosure(Self.disclosure), at: 1000)
        #expect(events.map(\.eventType) == ["PersonalDataDisclosed"])
        guard case .personalDataDisclosed(let disclosed) = events[0] else { return }
        #expect(disclosed.fields == ["humanToken"])
        #expect(disclosed.purpose == "support ticket 7")
        #expect(disclosed.keyId == "k-1")
        #expect(disclosed.tenant == nil)
        var expected = before
        expected.version += 1
        #expect(scenario.state == expected, "status, timestamps and updatedAt stay")
        #expect(try scenario.run(.recordDisclosure(Self.disclosure), at: 1001).count == 1, "a second opening is a second event")
    }

    @Test("a journey that never started has nothing to disclose")
    func notStartedIsRefused() {
        #expect(Scenario().refusal(.recordDisclosure(Self.disclosure), at: 1)?.code == .invalidTransition)
    }

    @Test(
        "the purpose is trimmed and bounded",
        arguments: [
            ("  support ticket 7 ", "support ticket 7"), ("", nil), ("   ", nil), ("a\u{7}b", nil),
            (String(repeating: "p", count: 200), String(repeating: "p", count: 200)), (String(repeating: "p", count: 201), nil),
        ] as [(String, String?)])
    func purpose(text: String, expected: String?) {
        #expect(PersonalDataDisclosure.checkedPurpose(text) == expected)
    }
}
