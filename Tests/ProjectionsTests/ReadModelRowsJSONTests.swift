import Foundation
import JourneyDomain
@testable import Projections
import Testing

/// The live runner's hand-written row JSON against the `JSONEncoder` encoding it replaced.
@Suite struct ReadModelRowsJSONTests {
    @Test func handWrittenRowJSONIsTheEncodedRowsValueForValue() throws {
        // JSONEncoder orders an object's members its own way here, so the texts are compared as JSON values.
        let states = try JourneyStateJSONTests.states()
        let rows = states.enumerated().map { StateRow(id: "j-\($0.offset)", state: $0.element, position: Int64($0.offset) * 7) }
        let encoder = JSONEncoder()
        #expect(
            try Self.value(ReadModelRowsJSON.states(rows)) == Self.value(String(decoding: encoder.encode(rows), as: UTF8.self)))
        let attempts = states.enumerated().flatMap { item in
            item.element.attempts.map { AttemptRow(journeyID: "j-\(item.offset)", attempt: $0) }
        }
        #expect(attempts.count > 20)
        #expect(
            try Self.value(ReadModelRowsJSON.attempts(attempts))
                == Self.value(String(decoding: encoder.encode(attempts), as: UTF8.self)))
        #expect(try ReadModelRowsJSON.states([]) == "[]")
        // The rollups' columns are the same values, fewer members.
        let full = try #require(try Self.value(ReadModelRowsJSON.states(rows)) as? [[String: Any]])
        let slim = try #require(try Self.value(ReadModelRowsJSON.rollupStates(rows)) as? [[String: Any]])
        #expect(slim.count == full.count)
        for (small, large) in zip(slim, full) {
            #expect(NSDictionary(dictionary: small) == NSDictionary(dictionary: large.filter { small.keys.contains($0.key) }))
        }
        #expect(
            Set(slim.flatMap(\.keys)) == [
                "journey_id", "status", "environment", "flow", "purpose", "current_attempt",
                "started_at", "callback_at", "result_at", "outcome", "tenant",
            ])
    }

    static func value(_ text: String) throws -> NSObject {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! NSObject
    }

    @Test func theWriterKnowsEveryColumnOfTheRows() throws {
        // A member added to StateRow or AttemptRow needs its line in ReadModelRowsJSON: with every
        // optional set, the written keys are the row's members.
        let states = try JourneyStateJSONTests.states()
        var stateKeys: Set<String> = []
        var attemptKeys: Set<String> = []
        for state in states {
            let row = StateRow(id: "j", state: state, position: 1)
            let object =
                try JSONSerialization.jsonObject(with: Data(try ReadModelRowsJSON.states([row]).utf8)) as? [[String: Any]]
            stateKeys.formUnion(object?.first?.keys.map { $0 } ?? [])
            for attempt in state.attempts {
                let written = ReadModelRowsJSON.attempts([AttemptRow(journeyID: "j", attempt: attempt)])
                let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [[String: Any]]
                attemptKeys.formUnion(parsed?.first?.keys.map { $0 } ?? [])
            }
        }
        let stateMembers = Mirror(reflecting: StateRow(id: "j", state: JourneyState(), position: 0)).children.compactMap(\.label)
        #expect(stateKeys == Set(stateMembers))
        let attemptMembers = Mirror(
            reflecting: AttemptRow(journeyID: "j", attempt: states.first { !$0.attempts.isEmpty }!.attempts[0])
        )
        .children.compactMap(\.label)
        #expect(attemptKeys == Set(attemptMembers))
    }
}
