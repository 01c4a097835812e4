import Foundation
import JourneyDomain
import Testing

@Suite("Webhooks and results")
struct WebhookAndResultTests {
    static let finished = WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")

    @Test("a webhook for the current attempt leads to Get Process")
    func webhook() throws {
        var scenario = try Scenario.tokenIssued()
        let events = try scenario.run(.recordWebhook(Self.finished), at: 20)
        guard case .webhookReceived(let received) = try #require(events.first) else { return }
        #expect(received.attempt == 1)
        #expect(!received.superseded)
        #expect(scenario.state.status == .awaitingResult)
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(20)))
    }

    @Test("a webhook for a process the journey does not know is refused")
    func unknownProcess() throws {
        let scenario = try Scenario.tokenIssued()
        let notice = WebhookNotice(processID: ProcessID("other"), state: "finished", result: "ok")
        let error = try #require(scenario.refusal(.recordWebhook(notice), at: 20))
        #expect(error.code == .unknownProcess)
        #expect(error.code.suggestedHTTPStatus == 404)
    }

    @Test("duplicate and late webhooks are recorded for audit and move nothing")
    func duplicates() throws {
        var scenario = try Scenario.completed()
        try scenario.run(.recordWebhook(Self.finished), at: 30)
        try scenario.run(.recordWebhook(Self.finished), at: 31)
        #expect(scenario.state.status == .completed)
        #expect(scenario.state.webhooksReceived == 2)
    }

    @Test("a webhook for a superseded attempt's process is recorded as superseded")
    func supersededWebhook() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 250)
        let events = try scenario.run(.recordWebhook(Self.finished), at: 251)
        guard case .webhookReceived(let received) = try #require(events.first) else { return }
        #expect(received.superseded)
        #expect(scenario.state.status == .creatingProcess)
    }

    @Test("an OK result completes as approved with the sealed Human Token")
    func approved() throws {
        var scenario = try Scenario.awaitingResult()
        let token = Fixture.sealed("human-token")
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: token)), at: 6)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        let state = scenario.state
        #expect(state.status == .completed)
        #expect(state.outcome == .approved)
        #expect(state.humanToken == token)
        #expect(state.completedAt == Fixture.t0.addingTimeInterval(6))
        #expect(state.currentAttempt?.processResult == .ok)
        #expect(state.nextDue == nil)
    }

    @Test("an OK result without a Human Token is refused")
    func okWithoutToken() throws {
        let scenario = try Scenario.awaitingResult()
        let error = try #require(scenario.refusal(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok)), at: 6))
        #expect(error.code == .invalidResult)
    }

    @Test("a rejection is final")
    func rejected() throws {
        var scenario = try Scenario.awaitingResult()
        try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .invalidIdentity)), at: 6)
        #expect(scenario.state.status == .completed)
        #expect(scenario.state.outcome == .rejected)
        #expect(scenario.state.humanToken == nil)
    }

    @Test(
        "Unico-side failures are retried under the policy, not final",
        arguments: [
            (ProcessState.finished, ProcessResult.error),
            (.finished, .unspecified),
            (.failed, .unspecified),
            (.failed, .error),
        ]
    )
    func unicoFailures(state: ProcessState, result: ProcessResult) throws {
        var scenario = try Scenario.awaitingResult()
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(state, result)), at: 6)
        #expect(events.map(\.eventType) == ["ResultFetched", "AttemptFailed"])
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.outcome == nil)
        #expect(scenario.state.lastFailure?.kind == .processFailed)
        #expect(scenario.state.lastFailure?.detail.contains(state.rawValue) == true)
        #expect(scenario.state.nextDue == DueWork(kind: .retry, attempt: 1, at: Fixture.t0.addingTimeInterval(16)))
    }

    @Test("a Unico-side failure of the last attempt the policy allows abandons the journey")
    func unicoFailureExhausted() throws {
        var scenario = Scenario()
        try scenario.run(Fixture.start(policy: RetryPolicy(maximumAttempts: 1)), at: 0)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        try scenario.run(.issueToken, at: 2)
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 4)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.failed, .error)), at: 6)
        #expect(events.map(\.eventType) == ["ResultFetched", "AttemptFailed", "JourneyAbandoned"])
        #expect(scenario.state.abandonReason?.kind == .attemptsExhausted)
    }

    @Test("an expired process fails the attempt and schedules a fresh one")
    func expiredProcess() throws {
        var scenario = try Scenario.awaitingResult()
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .expired)), at: 6)
        #expect(events.map(\.eventType) == ["ResultFetched", "AttemptFailed"])
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.lastFailure?.kind == .processExpired)
    }

    @Test("an unfinished process is fetched again with a doubling delay capped at 60 s")
    func pending() throws {
        var scenario = try Scenario.awaitingResult()
        var delays: [TimeInterval] = []
        var now: TimeInterval = 10
        for _ in 0..<6 {
            let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: now)
            guard case .resultPending(let pending) = try #require(events.first) else { return }
            let delay = pending.nextFetchAt.timeIntervalSince(Fixture.t0.addingTimeInterval(now))
            delays.append(delay)
            now += delay
        }
        #expect(delays == [5, 10, 20, 40, 60, 60])
        #expect(scenario.state.currentAttempt?.pendingFetches == 6)
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(now)))
        #expect(scenario.state.status == .awaitingResult)
    }

    @Test("abandon on request ends the journey with the reason")
    func abandon() throws {
        let scenario = try Scenario.abandoned()
        let state = scenario.state
        #expect(state.status == .abandoned)
        #expect(state.abandonReason == .requested("company cancelled"))
        #expect(state.abandonedAt == Fixture.t0.addingTimeInterval(3))
        #expect(state.nextDue == nil)
    }
}
