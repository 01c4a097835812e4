import Foundation
import JourneyDomain
import JourneyTesting
import Migrations
import Testing
import UnicoEmulator
import Workers

/// A journey's maximum age (issue 23) is due work scheduled with the journey's others: a journey
/// that would otherwise stay open for ever (here, awaiting a result Unico never finishes) is
/// abandoned as `maxAgeReached` by the workers, without any table scan.
@Suite(.serialized) struct MaxAgeWorkTests {
    static let day: TimeInterval = 86_400

    /// A journey whose app reported a success for a capture that never happened: Get Process
    /// answers "not finished" for ever.
    static func awaitingForEver(_ h: WorkersHarness) async throws -> JourneyID {
        let id = try await h.startCreated()
        let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token")
        #expect(token.status == 200 || token.status == 201, "\(token.text)")
        let processID = try #require(h.emulator.processes().first?.id)
        let clientToken = try h.dependencies.clientTokens.issue(
            journeyID: try #require(UUID(uuidString: id.rawValue)), now: h.now())
        let callback = try await h.send(
            "POST", "/v1/journeys/\(id.rawValue)/callback",
            json: ["outcome": "success", "processId": processID], bearer: clientToken)
        #expect(callback.status < 300, "\(callback.text)")
        return id
    }

    /// Get Process fails for every call, for ever.
    static let unicoDown = FaultScript(routes: [FaultScript.Route.getProcess.rawValue: .init(serverErrorRate: 1)])

    @Test func aJourneyAwaitingAResultForEverIsAbandonedAtItsMaximumAge() async throws {
        try await withWorkers(faults: Self.unicoDown) { h in
            let id = try await Self.awaitingForEver(h)
            let started = try #require(try await h.state(id).startedAt)
            let worker = try h.worker()
            try await h.poll(worker)
            #expect(try await h.state(id).status == .awaitingResult)
            #expect(try await h.state(id).maxAgeAt == started.addingTimeInterval(30 * Self.day))
            // The fetch that keeps failing stays the journey's next due work, retried with backoff.
            #expect(try await h.state(id).nextDue?.kind == .fetchResult)

            // A day before the maximum age it still waits; past it, the retried fetch abandons it.
            h.clock.set(started.addingTimeInterval(29 * Self.day))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .awaitingResult)
            h.clock.set(started.addingTimeInterval(30 * Self.day + 1))
            try await waitUntil("the workers abandon the journey at its maximum age") {
                h.clock.advance(by: 301)
                try await h.poll(worker)
                return try await h.state(id).status == .abandoned
            }
            let state = try await h.state(id)
            #expect(state.abandonReason?.kind == .maxAgeReached)
            #expect(state.nextDue == nil)
            try await h.catchUp()
            let row = try await h.database.owner.query(
                "SELECT status, next_due_at IS NULL FROM journey_state WHERE journey_id = \(id.rawValue)")
            #expect(try row.first?.decode(0, as: String.self) == "abandoned")
            #expect(try row.first?.decode(1, as: Bool.self) == true, "nothing is scheduled for it any more")
            // The app is told the journey ended.
            let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token")
            #expect(token.status == 409 && token["abandonReason"] as? String == "maxAgeReached", "\(token.text)")
        }
    }

    @Test func theMaximumAgeIsTheDeploymentsFrozenIntoEachJourney() async throws {
        #expect(try RetryPolicy.fromEnvironment([:]).maximumAge == 30 * Self.day)
        #expect(try RetryPolicy.fromEnvironment(["JOURNEYS_MAX_JOURNEY_AGE": "604800"]).maximumAge == 7 * Self.day)
        for bad in ["0", "59", "31536001", "a week"] {
            #expect(throws: (any Error).self, "\(bad)") { try RetryPolicy.fromEnvironment(["JOURNEYS_MAX_JOURNEY_AGE": bad]) }
        }
        try await withWorkers(faults: Self.unicoDown, policy: RetryPolicy(maximumAge: 2 * Self.day)) { h in
            let id = try await Self.awaitingForEver(h)
            let started = try #require(try await h.state(id).startedAt)
            #expect(try await h.state(id).retryPolicy.maximumAge == 2 * Self.day)
            // A start may not set a deadline beyond the journey's maximum age.
            let late = Date.ISO8601FormatStyle().format(h.now().addingTimeInterval(3 * Self.day))
            let refused = try await h.send(
                "POST", "/v1/journeys",
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "deadline": late,
                ])
            #expect(refused.status == 422 && refused.field == "deadline", "\(refused.text)")
            #expect(refused.code == "validation_failed" && (refused["detail"] as? String)?.contains("2 days") == true)

            let worker = try h.worker()
            h.clock.set(started.addingTimeInterval(2 * Self.day + 1))
            try await waitUntil("the workers abandon the journey at its maximum age") {
                h.clock.advance(by: 301)
                try await h.poll(worker)
                return try await h.state(id).status == .abandoned
            }
            #expect(try await h.state(id).abandonReason?.kind == .maxAgeReached)
        }
    }

    /// Journeys started before migration 0045 read the default age; one the read model had
    /// nothing scheduled for is scheduled by the migration itself.
    @Test func theMigrationSchedulesOpenJourneysTheReadModelHadNothingDueFor() async throws {
        try await withWorkers(faults: Self.unicoDown) { h in
            let id = try await Self.awaitingForEver(h)
            let started = try #require(try await h.state(id).startedAt)
            try await h.catchUp()
            // As an older projection left a journey waiting on nothing.
            _ = try await h.database.owner.query(
                "UPDATE journey_state SET next_due_at = NULL, next_due_kind = NULL, next_due_attempt = NULL WHERE journey_id = \(id.rawValue)"
            )
            let migration = try #require(SchemaFiles.all.first { $0.name.hasPrefix("0045_") })
            try await h.database.owner.withConnection { try $0.execute(unsafeSQL: migration.sql) }
            let row = try await h.database.owner.query(
                "SELECT next_due_kind, next_due_at FROM journey_state WHERE journey_id = \(id.rawValue)")
            #expect(try row.first?.decode(0, as: String?.self) == "abandonAtMaxAge")
            let due = try #require(try row.first?.decode(1, as: Date?.self))
            #expect(abs(due.timeIntervalSince(started.addingTimeInterval(30 * Self.day))) < 0.001)

            let worker = try h.worker()
            h.clock.set(started.addingTimeInterval(30 * Self.day + 1))
            #expect(try await worker.runOnce() == 1, "the migration's item runs without the projection")
            #expect(try await h.state(id).abandonReason?.kind == .maxAgeReached)
        }
    }
}
