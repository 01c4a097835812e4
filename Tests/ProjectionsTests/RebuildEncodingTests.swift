import Foundation
import JourneyDomain
import JourneyTesting
import Postgres
@testable import Projections
import Testing

/// The rebuild's own encoders against what the live projection writes.
@Suite struct RebuildEncodingTests {
    /// States along a few histories, with awkward text and sub-second times.
    static func states() throws -> [JourneyState] {
        var out: [JourneyState] = []
        for (index, reference) in ["order-1", "tab\tline\nquote\"back\\slash/ação 🧪", "\u{1}\u{1f}control", ""].enumerated() {
            let id = JourneyID("j-\(index)")
            let process = ProcessID("p-\(index)")
            let commands: [JourneyCommand] = [
                .start(
                    StartJourney(
                        journeyID: id, environment: .prod, flow: Flow("humantoken"), purpose: .creditProcess,
                        subject: SealedSubject(
                            reference: SubjectReference("ref-\(index)"), documentType: .brCPF,
                            documentNumber: sealed("doc"), notificationChannels: []),
                        clientReference: reference)),
                .recordProcessCreated(
                    ProcessCreation(
                        attempt: 1, processID: process, webAppToken: sealed("wat"),
                        processToken: sealed("pt"), link: sealed("link"), tokenExpiresAt: nil)),
                .issueToken, .recordCaptureOpened(attempt: 1),
                index % 2 == 0
                    ? .recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed))
                    : .recordCallback(attempt: 1, outcome: .success(processID: process)),
                index % 2 == 0
                    ? .abandon(reason: .requested("gave up \"now\"\n"))
                    : .recordResult(
                        attempt: 1,
                        snapshot: ProcessSnapshot(
                            state: .finished, result: .ok, humanToken: sealed("ht"),
                            finishedAt: Date(timeIntervalSince1970: 1_790_000_000.5))),
            ]
            var state = Journey.initialState
            var now = Date(timeIntervalSince1970: 1_795_000_000.123456 + Double(index) * 0.000_001)
            for command in commands {
                state = Journey.fold(try Journey.decide(command, state: state, now: now, randomUnit: 0.37), from: state)
                out.append(state)
                now = now.addingTimeInterval(1.0 / 3.0)
            }
        }
        return out
    }

    @Test func theStreamedJSONOfAStateIsTheJSONEncodersOnceInJSONB() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let states = try Self.states()
            #expect(states.count > 20)
            for state in states {
                let streamed = String(decoding: try JSONStreamEncoder.encode(state), as: UTF8.self)
                let foundation = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
                #expect(try JSONDecoder().decode(JourneyState.self, from: Data(streamed.utf8)) == state)
                let row = try #require(
                    try await db.app.query("SELECT \(streamed)::jsonb::text, \(foundation)::jsonb::text").first)
                #expect(try row.decode(0, as: String.self) == row.decode(1, as: String.self))
            }
            // Nested arrays, empty containers, nil and special numbers.
            struct Odd: Encodable {
                let a: [[Int]] = [[1, 2], [], [3]]
                let b: [String: [Double]] = ["x": [0.1, 1e-7, 1e21, -0.0, 2]]
                let c: Int? = nil
                let d: [Int?] = [nil, 1]
                let e = Data([0, 255, 7])
            }
            let odd = String(decoding: try JSONStreamEncoder.encode(Odd()), as: UTF8.self)
            let reference = String(decoding: try JSONEncoder().encode(Odd()), as: UTF8.self)
            let row = try #require(try await db.app.query("SELECT \(odd)::jsonb::text, \(reference)::jsonb::text").first)
            #expect(try row.decode(0, as: String.self) == row.decode(1, as: String.self))
            #expect(throws: JSONStreamEncoder.Unsupported.self) { try JSONStreamEncoder.encode([Double.nan]) }
        }
    }

    @Test func copiedRowsEqualTheUpsertedOnes() async throws {
        try await TestDatabase.with { db in
            let states = try Self.states()
            let changed = states.enumerated().map {
                JourneyStateProjection.Changed(id: "j-\($0)", state: $1, position: Int64($0 + 1))
            }
            let fresh = JourneyStateProjection.Tables(state: "copy_state", attempts: "copy_attempts", daily: "copy_daily")
            try await db.owner.withConnection { connection in
                try connection.execute(unsafeSQL: ProjectionsStatements.createRebuildTables(fresh, like: .live))
                var copy = ReadModelCopy(columns: try ReadModelCopy.columns(of: fresh, on: connection))
                for journey in changed { try copy.append(id: journey.id, state: journey.state, position: journey.position) }
                try ReadModelCopy.write(copy.take(), columns: copy.columns, tables: fresh, on: connection)
                try JourneyStateProjection.write(
                    try #require(try JourneyStateProjection.Rows(changed)), tables: .live, on: connection)
            }
            for (live, copied) in [("journey_state", fresh.state), ("journey_attempts", fresh.attempts)] {
                let one = try await db.owner.query("SELECT to_jsonb(t)::text FROM \(unsafeSQL: live) t ORDER BY 1").map {
                    try $0.decode(0, as: String.self)
                }
                let two = try await db.owner.query("SELECT to_jsonb(t)::text FROM \(unsafeSQL: copied) t ORDER BY 1").map {
                    try $0.decode(0, as: String.self)
                }
                #expect(one.count >= changed.count)
                #expect(one == two)
            }
        }
    }
}
