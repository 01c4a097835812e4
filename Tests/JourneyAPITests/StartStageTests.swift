import Foundation
import JourneyAPI
import JourneyEngine
import JourneyTesting
import Observability
import Synchronization
import Testing

/// A timed start (`JourneyDependencies.startStages`, as `bench e2e` runs it) reports every stage
/// once per request, and the fewer round trips per start keep the journey's events and sealing.
@Suite(.serialized) struct StartStageTests {
    @Test func aTimedStartReportsEveryStageAndTheSameSubjectStartsTwice() async throws {
        let reports = Mutex<[[StageTimer.Stage]]>([])
        var options = TestStack.Options(time: .system)
        options.startStages = { stages in reports.withLock { $0.append(stages) } }
        try await TestStack.with(options) { stack in
            let h = JourneyHarness(stack: stack)
            let first = try await h.start(key: "timed-1")
            #expect(first.status == 201)
            // The same subject again: its data key is read, not created, in the same one statement.
            let second = try await h.start(key: "timed-2")
            #expect(second.status == 201)
            let ids = try [first, second].map { try #require($0["journeyId"] as? String) }
            #expect(ids[0] != ids[1])
            for id in ids {
                #expect(
                    try await h.eventTypes(id) == ["JourneyStarted", "ProcessCreationRequested", "ProcessCreated", "TokenIssued"])
            }
            let journey = try await h.send("GET", "/v1/journeys/\(ids[1])", bearer: h.reader)
            #expect(journey.status == 200)
            let keys = try await h.database.owner.query("SELECT count(*)::int FROM subject_keys")
            #expect(try keys.first?.decode(0, as: Int.self) == 1)
        }
        let timed = reports.withLock { $0 }
        #expect(timed.count == 2)
        for stages in timed {
            let names = Set(stages.map(\.name))
            for stage in StartStage.all { #expect(names.contains(stage), "missing stage \(stage)") }
            #expect(stages.allSatisfy { $0.duration >= .zero })
        }
    }
}
