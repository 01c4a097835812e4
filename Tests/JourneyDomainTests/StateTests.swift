import Foundation
import JourneyDomain
import Testing

@Suite("State folding")
struct StateTests {
    func at(_ seconds: TimeInterval) -> Date { Fixture.t0.addingTimeInterval(seconds) }

    @Test("the initial state has nothing due")
    func initial() {
        let state = Journey.initialState
        #expect(state.status == .notStarted)
        #expect(state.version == 0)
        #expect(state.currentAttempt == nil)
        #expect(state.nextDue == nil)
    }

    @Test("a journey with a retry records every step's time, the retry count and the outcome")
    func fullJourney() throws {
        var scenario = try Scenario.captureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 10)
        try scenario.run(.retry(afterAttempt: 1), at: 20)
        try scenario.run(.issueToken, at: 20)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 21)
        try scenario.run(.issueToken, at: 22)
        try scenario.run(.recordCaptureOpened(attempt: 2), at: 23)
        try scenario.run(.recordCallback(attempt: 2, outcome: .success(processID: Fixture.process2)), at: 60)
        try scenario.run(.recordResult(attempt: 2, snapshot: Fixture.result(.created, .unspecified)), at: 61)
        try scenario.run(.recordResult(attempt: 2, snapshot: Fixture.result(.finished, .invalidIdentity)), at: 66)

        let state = scenario.state
        #expect(state.status == .completed)
        #expect(state.outcome == .rejected)
        #expect(state.version == scenario.events.count)
        #expect(state.startedAt == at(0))
        #expect(state.retryCount == 1)
        #expect(state.lastErrorCode == .authenticationFailed)
        #expect(state.completedAt == at(66))
        #expect(state.updatedAt == at(66))

        let first = try #require(state.attempt(1))
        #expect(first.requestedAt == at(0))
        #expect(first.processCreatedAt == at(1))
        #expect(first.firstTokenIssuedAt == at(2))
        #expect(first.captureOpenedAt == at(3))
        #expect(first.callbackAt == at(10))
        #expect(first.failedAt == at(10))
        #expect(first.retryAt == at(20))
        #expect(first.supersededAt == at(20))

        let second = try #require(state.attempt(2))
        #expect(second.trigger == .tokenRequest)
        #expect(second.unicoClientReference == "jrn_01-a2")
        #expect(second.processID == Fixture.process2)
        #expect(second.tokenExpiresAt == at(321))
        #expect(second.awaitingResultSince == at(60))
        #expect(second.pendingFetches == 1)
        #expect(second.resultFetchedAt == at(66))
        #expect(second.processResult == .invalidIdentity)
        #expect(second.failedAt == nil)
    }

    @Test("folding event by event equals folding all at once, and evolve is the same step")
    func foldIsStepwise() throws {
        let scenario = try Scenario.completed()
        var stepwise = Journey.initialState
        for event in scenario.events { stepwise = Journey.evolve(stepwise, event) }
        #expect(stepwise == scenario.state)
        let half = scenario.events.count / 2
        let resumed = Journey.fold(scenario.events[half...], from: Journey.fold(scenario.events[..<half]))
        #expect(resumed == scenario.state)
    }

    @Test("events for attempts the state does not know only bump the version")
    func unknownAttemptEvent() throws {
        let scenario = try Scenario.tokenIssued()
        let stray = JourneyEvent.captureOpened(CaptureOpened(attempt: 7, occurredAt: at(9)))
        let after = Journey.evolve(scenario.state, stray)
        var expected = scenario.state
        expected.version += 1
        expected.updatedAt = at(9)
        #expect(after == expected)
    }

    @Test("the state encodes and decodes for snapshots")
    func snapshot() throws {
        let state = try Scenario.retryScheduled().state
        let data = try EventJSON.makeEncoder().encode(state)
        #expect(try EventJSON.makeDecoder().decode(JourneyState.self, from: data) == state)
    }

    @Test(
        "due work follows the status",
        arguments: [
            ("creatingProcess", DueWork.Kind.reconcileProcessCreation, 60.0),
            ("tokenIssued", .expireToken, 301),
            ("awaitingResult", .fetchResult, 4),
            // The fixture's 73302 follows an opened capture: Unico is asked once before the retry.
            ("retryScheduled", .fetchResult, 4),
        ])
    func due(stage: String, kind: DueWork.Kind, seconds: TimeInterval) throws {
        let scenario: Scenario =
            switch stage {
            case "creatingProcess": try .creatingProcess()
            case "tokenIssued": try .tokenIssued()
            case "awaitingResult": try .awaitingResult()
            default: try .retryScheduled()
            }
        #expect(scenario.state.nextDue == DueWork(kind: kind, attempt: 1, at: at(seconds)))
    }
}
