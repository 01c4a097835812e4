import Foundation
import JourneyDomain
import Testing

@Suite("Subject erasure")
struct SubjectErasureTests {
    static let erasure = SubjectErasure(
        requestedBy: "api-key:abcd2345", reason: "LGPD request",
        erasedAt: Fixture.t0.addingTimeInterval(999))

    @Test("a completed journey is marked once; status and outcome stay")
    func completedIsMarked() throws {
        var scenario = try Scenario.completed()
        let events = try scenario.run(.recordSubjectErased(Self.erasure), at: 1000)
        #expect(events.map(\.eventType) == ["SubjectErased"])
        guard case .subjectErased(let erased) = events[0] else { return }
        #expect(erased.requestedBy == "api-key:abcd2345")
        #expect(erased.reason == "LGPD request")
        #expect(scenario.state.status == .completed)
        #expect(scenario.state.subjectErasedAt == Self.erasure.erasedAt)
        #expect(try scenario.run(.recordSubjectErased(Self.erasure), at: 1001).isEmpty)
    }

    @Test("an active journey is abandoned first and nothing is due afterwards")
    func activeIsAbandoned() throws {
        var scenario = try Scenario.awaitingResult()
        let events = try scenario.run(.recordSubjectErased(Self.erasure), at: 1000)
        #expect(events.map(\.eventType) == ["JourneyAbandoned", "SubjectErased"])
        #expect(scenario.state.status == .abandoned)
        #expect(scenario.state.abandonReason?.kind == .requested)
        #expect(scenario.state.nextDue == nil)
    }

    @Test("a journey that never started is refused")
    func notStartedIsRefused() {
        let error = Scenario().refusal(.recordSubjectErased(Self.erasure), at: 1)
        #expect(error?.code == .invalidTransition)
    }
}
