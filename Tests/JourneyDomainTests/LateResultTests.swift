import Foundation
import JourneyDomain
import Testing

/// No approval is lost: an opened capture is asked about before it is expired, and a result
/// Unico announces after the policy gave up on the journey is still recorded.
@Suite("No approval lost: probes and late results")
struct LateResultTests {
    static let approved = Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))

    @Test func anOpenedCaptureThatFinishedIsRecordedInsteadOfExpired() throws {
        var scenario = try Scenario.captureOpened()
        #expect(scenario.state.mayProbeResult(1))
        // Neither the app's callback nor Unico's webhook arrived; Get Process says approved.
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 901)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        #expect(scenario.state.status == .completed && scenario.state.outcome == .approved)
    }

    @Test func anOpenedCaptureUnicoStillWorksOnRecordsNothingAndIsExpiredAfterwards() throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 901)
        #expect(events.isEmpty)
        #expect(try scenario.run(.expireToken(attempt: 1), at: 901).first?.eventType == "TokenExpired")
        // A capture that was never opened is not asked about.
        #expect(try !Scenario.tokenIssued().state.mayProbeResult(1))
    }

    @Test func anApprovalAnnouncedAfterTheJourneyWasAbandonedIsRecorded() throws {
        var scenario = try Scenario.captureOpened(policy: RetryPolicy(maximumAttempts: 1))
        // The token expires after the grace; the policy allows no second attempt: abandoned.
        _ = try scenario.run(.expireToken(attempt: 1), at: 1_000)
        #expect(scenario.state.status == .abandoned)
        #expect(scenario.state.nextDue == nil)
        // Minute 31: Unico's webhook says the process finished.
        _ = try scenario.run(
            .recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")),
            at: 1_860)
        #expect(scenario.state.awaitsResult(1))
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 1_861)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        let state = scenario.state
        #expect(state.status == .completed && state.outcome == .approved)
        #expect(state.abandonedAt != nil, "the abandonment stays on record")
        #expect(state.nextDue == nil)
    }

    @Test func aJourneyAbandonedOnRequestLearnsNoLateResult() throws {
        var scenario = try Scenario.abandoned()
        _ = try scenario.run(
            .recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")),
            at: 60)
        #expect(!scenario.state.awaitsResult(1) && scenario.state.nextDue == nil)
        #expect(scenario.refusal(.recordResult(attempt: 1, snapshot: Self.approved), at: 61)?.code == .invalidTransition)
    }

    // MARK: - After a post-capture 73302

    @Test func a73302AfterAnOpenedCaptureIsProbedBeforeTheRetry() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.awaitsFinishProbe(1) && scenario.state.mayProbeResult(1))
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(40)))
        // Unico finished the process: the lost finish is learnt, the journey completes.
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 41)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        #expect(scenario.state.status == .completed && scenario.state.outcome == .approved)
        #expect(scenario.state.nextDue == nil)
    }

    @Test func anUnfinishedProcessIsRecordedOnceAndTheRetryGoesAhead() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        let retryAt = try #require(scenario.state.currentAttempt?.retryAt)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 41)
        #expect(events.map(\.eventType) == ["ResultPending"])
        #expect(!scenario.state.awaitsFinishProbe(1) && !scenario.state.mayProbeResult(1))
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.nextDue == DueWork(kind: .retry, attempt: 1, at: retryAt), "the retry goes ahead unchanged")
        #expect(scenario.refusal(.recordResult(attempt: 1, snapshot: Self.approved), at: 42) != nil, "asked once")
        #expect(
            try scenario.run(.retry(afterAttempt: 1), at: retryAt.timeIntervalSince(Fixture.t0)).first?.eventType
                == "RetryAllowed")
    }

    @Test func aUnicoFailureLearntByTheProbeDoesNotFailTheAttemptTwice() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.failed, .error)), at: 41)
        #expect(events.map(\.eventType) == ["ResultFetched"])
        #expect(scenario.state.status == .retryScheduled && scenario.state.nextDue?.kind == .retry)
    }

    @Test func theProbesAnswerAfterTheAppsNewTokenRequestIsRecordedForAttempt1() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        // The person taps "try again" before the workers asked Unico: attempt 2 exists.
        try scenario.run(.issueToken, at: 41)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 42)
        try scenario.run(.issueToken, at: 42)
        #expect(scenario.state.awaitsFinishProbe(1))
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(40)))
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 43)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        guard case .journeyCompleted(let completed) = events[1] else { return }
        #expect(completed.attempt == 1 && completed.processID == Fixture.process1)
        #expect(scenario.state.status == .completed && scenario.state.outcome == .approved)
    }

    @Test func theProbeSayingUnfinishedAfterAttempt2StartedLeavesAttempt2Alone() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        try scenario.run(.issueToken, at: 41)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 42)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 43)
        #expect(events.map(\.eventType) == ["ResultPending"])
        #expect(scenario.state.status == .processCreated)
        #expect(scenario.state.nextDue == DueWork(kind: .expireToken, attempt: 2, at: Fixture.t0.addingTimeInterval(342)))
    }

    @Test func noProbeWithoutAnOpenedCaptureOrForAnotherCode() throws {
        var unopened = try Scenario.sdkTokenIssued()
        try unopened.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        #expect(!unopened.state.awaitsFinishProbe(1) && !unopened.state.mayProbeResult(1))
        #expect(unopened.state.nextDue?.kind == .retry)

        var otherCode = try Scenario.sdkCaptureOpened()
        try otherCode.run(.recordCallback(attempt: 1, outcome: .error(code: .tokenRejected)), at: 40)
        #expect(!otherCode.state.awaitsFinishProbe(1) && !otherCode.state.mayProbeResult(1))
        #expect(otherCode.state.nextDue?.kind != .fetchResult)
        #expect(otherCode.refusal(.recordResult(attempt: 1, snapshot: Self.approved), at: 41) != nil)
    }

    @Test func aLastAttemptsPostCapture73302IsStillProbedAfterTheJourneyWasAbandoned() throws {
        var scenario = try Scenario.sdkCaptureOpened(policy: RetryPolicy(maximumAttempts: 1))
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 40)
        #expect(scenario.state.status == .abandoned)
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Self.approved), at: 41)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        #expect(scenario.state.status == .completed && scenario.state.abandonedAt != nil)
    }

    @Test func aLinkJourneysPostCapture73302IsProbedBeforeTheWorkersRetryMakesANewProcess() throws {
        var scenario = Scenario()
        try scenario.run(Fixture.start(subject: Fixture.linkSubject), at: 0)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        // The person opens the link (recorded as the capture's opening); the app then reports 73302.
        #expect(try scenario.run(.issueLink, at: 3_600).map(\.eventType) == ["LinkIssued", "CaptureOpened"])
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 3_700)
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(3_700)))
        try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 3_701)
        let retry = try #require(scenario.state.nextDue)
        #expect(retry.kind == .retry && retry.attempt == 1)
        let events = try scenario.run(.retry(afterAttempt: 1), at: retry.at.timeIntervalSince(Fixture.t0))
        #expect(events.map(\.eventType) == ["ProcessCreationRequested"], "the worker's retry goes ahead unchanged")
    }
}
