import Audit
import EventStore
import Foundation
import JourneyDomain
import JourneyTesting
import Testing
import Timestamps

@Suite struct ShowCommandTests {
    @Test func showPrintsTheTimelineAndStateWithoutPersonalData() async throws {
        try await TestDatabase.with { db in
            let id = JourneyID(UUID().uuidString.lowercased())
            try await record(approvedOnSecondAttempt(id), journey: id, db: db)
            let recorded = try await EventStore(client: db.app).readStream(StreamName.journey(id.rawValue))

            let table = await journeys(["audit", "show", id.rawValue], database: db)
            #expect(table.code == 0, "\(table.error)")
            #expect(table.output.contains("\(recorded.count) of \(recorded.count) events"))
            #expect(table.output.contains("JourneyCompleted"))
            #expect(table.output.contains("journey completed: approved"))
            #expect(table.output.contains("api-key:test"))
            #expect(table.output.contains("completed"))
            for secret in [
                "12345678909", "Maria", sealed("12345678909").ciphertext, sealed("Maria Silva").ciphertext,
                sealed("ht").ciphertext,
            ] {
                #expect(!table.output.contains(secret))
            }

            let failed = try #require(recorded.first { $0.type == "AttemptFailed" })
            let asOf = RFC3339.string(from: failed.recordedAt)
            let json = await journeys(
                ["audit", "show", "journey-" + id.rawValue.uppercased(), "--as-of", asOf, "--format", "json"],
                database: db)
            #expect(json.code == 0, "\(json.error)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            let state = try #require(object["state"] as? [String: Any])
            #expect(state["status"] as? String == "retryScheduled")
            #expect(state["lastErrorCode"] as? Int == 73302)
            #expect(state["subjectReference"] as? String == "ref-\(id.rawValue)")
            #expect(object["eventsTotal"] as? Int == recorded.count)
            let shown = try #require(object["timeline"] as? [[String: Any]])
            #expect(shown.count == recorded.filter { $0.recordedAt <= failed.recordedAt }.count)
            #expect(shown.last?["type"] as? String == "AttemptFailed")
            #expect(!json.output.contains(sealed("12345678909").ciphertext))

            let early = await journeys(["audit", "show", id.rawValue, "--as-of", "2000-01-01T00:00:00Z"], database: db)
            #expect(early.code == 0)
            #expect(early.output.contains("did not exist yet"))
        }
    }

    @Test func badInputIsRefused() async throws {
        try await TestDatabase.with { db in
            let unknown = await journeys(["audit", "show", UUID().uuidString], database: db)
            #expect(unknown.code == 1)
            #expect(unknown.error.contains("no journey"))
            for bad in ["yesterday", "2026-02-30T00:00:00Z", "2026-11-29 18:00"] {
                let result = await journeys(["audit", "show", "j1", "--as-of", bad], database: db)
                #expect(result.code == 64, "\(bad)")
                #expect(result.error.contains("--as-of"))
            }
            let format = await journeys(["audit", "show", "j1", "--format", "xml"], database: db)
            #expect(format.code == 64)
            #expect(format.error.contains("table, json"))
            let blank = await journeys(["audit", "show", "has space"], database: db)
            #expect(blank.code == 64)
            let missing = await journeys(["audit", "show"], database: db)
            #expect(missing.code != 0)
        }
    }
}
