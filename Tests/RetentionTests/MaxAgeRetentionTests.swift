import DataSubjects
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Retention
import Testing
import Workers

/// A journey that never ends would keep its subject from ever being erased (issue 23): at its
/// maximum age the workers abandon it (`maxAgeReached`), and from then on the retention of ended
/// journeys erases its subject like any other's.
@Suite(.serialized) struct MaxAgeRetentionTests {
    static let day: TimeInterval = 86_400

    @Test func aJourneyAbandonedAtItsMaximumAgeIsErasedByRetentionLater() async throws {
        try await TestStack.with(TestStack.Options(time: .manual)) { stack in
            // A journey whose app reported a success for a capture that never happened: Get
            // Process answers "not finished" for ever, and the journey would await it for ever.
            let started = try await stack.send(
                "POST", "/v1/journeys", bearer: stack.writer,
                json: [
                    "subject": ["documentType": "DUI_TYPE_BR_CPF", "documentNumber": "52998224725", "name": "Pessoa Eterna"],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "createProcess": "now",
                ])
            #expect(started.status == 201, "\(started.text)")
            let id = try #require(started["journeyId"] as? String)
            let processID = try #require(stack.emulator.processes().first?.id)
            let callback = try await stack.send(
                "POST", "/v1/journeys/\(id)/callback", bearer: started["clientToken"] as? String,
                json: ["outcome": "success", "processId": processID])
            #expect(callback["status"] as? String == "awaitingResult", "\(callback.text)")
            let journeys = Journeys(database: stack.database.app, dependencies: stack.dependencies.engine)
            let start = try #require(try await journeys.state(of: JourneyID(id)).startedAt)

            let retention = try Retention(
                configuration: .init(batchSize: 10, idempotencyKeyDays: 36_500),
                subjects: DataSubjects(journeys: journeys), readModels: stack.database.projector)
            // The log's readable horizon is the whole cluster's: another test's open transaction
            // can hold the journey's events back from one catch-up, so wait for its row.
            let subject = try await waitFor("the read model shows the journey") {
                _ = try await stack.projections.catchUp()
                return try await stack.database.app.query(
                    "SELECT subject_reference FROM journey_state WHERE journey_id = \(id)"
                ).first?.decode(0, as: String.self)
            }
            // Open, the journey holds its subject back however long retention waits.
            #expect(try await retention.plan(now: start.addingTimeInterval(1000 * Self.day)).subjectsToErase.isEmpty)

            let worker = try stack.worker(
                WorkerService.Configuration(
                    pollInterval: .milliseconds(20), batchSize: 50,
                    leaseDuration: 30, heartbeatInterval: .seconds(5),
                    concurrency: 2, workerID: "max-age"))
            stack.clock.set(start.addingTimeInterval(30 * Self.day + 1))
            try await waitUntil("the workers abandon the journey at its maximum age") {
                _ = try await stack.projections.catchUp()
                _ = try await worker.runOnce()
                return try await journeys.state(of: JourneyID(id)).status == .abandoned
            }
            let abandoned = try await journeys.state(of: JourneyID(id))
            #expect(abandoned.abandonReason?.kind == .maxAgeReached)
            let ended = try #require(abandoned.abandonedAt)
            try await waitUntil("the read model shows the journey ended") {
                _ = try await stack.projections.catchUp()
                return try await stack.database.app.query("SELECT status FROM journey_state WHERE journey_id = \(id)")
                    .first?.decode(0, as: String.self) == "abandoned"
            }

            // The retention period counts from the abandonment, as for any ended journey.
            #expect(try await retention.plan(now: ended.addingTimeInterval(364 * Self.day)).subjectsToErase.isEmpty)
            let outcome = try await retention.apply(now: ended.addingTimeInterval(366 * Self.day))
            #expect(outcome.subjectsErased == [subject])
            #expect(try await journeys.state(of: JourneyID(id)).subjectErasedAt != nil)
            #expect(try await stack.dependencies.engine.vault.keyStatus(subject: SubjectReference(subject)) != .live)
        }
    }
}
