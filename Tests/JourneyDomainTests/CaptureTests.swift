import Foundation
import JourneyDomain
import Testing

extension Scenario {
    /// An SDK journey (no notification channels): attempt 1's process created at t0+1 and its
    /// token handed out at t0+2 (expires at t0+301).
    static func sdkTokenIssued(policy: RetryPolicy = .standard) throws -> Scenario {
        var subject = Fixture.subject
        subject.notificationChannels = []
        var scenario = Scenario()
        try scenario.run(
            .start(
                StartJourney(
                    journeyID: Fixture.journeyID, environment: .uat, flow: Flow("humantoken"),
                    purpose: .creditProcess, subject: subject, clientReference: "order-42",
                    retryPolicy: policy)), at: 0)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        try scenario.run(.issueToken, at: 2)
        return scenario
    }

    /// ``sdkTokenIssued(policy:)`` with the capture opened at t0+3.
    static func sdkCaptureOpened(policy: RetryPolicy = .standard) throws -> Scenario {
        var scenario = try sdkTokenIssued(policy: policy)
        try scenario.run(.recordCaptureOpened(attempt: 1), at: 3)
        return scenario
    }
}

@Suite("A fresh process right before each capture")
struct FreshProcessTests {
    @Test("SDK journey: the workers allow the retry without a process; the app's token request creates it")
    func retryAllowed() throws {
        var scenario = try Scenario.sdkTokenIssued()
        try scenario.run(.expireToken(attempt: 1), at: 301)
        #expect(scenario.state.nextDue == DueWork(kind: .retry, attempt: 1, at: Fixture.t0.addingTimeInterval(311)))
        let allowed = try scenario.run(.retry(afterAttempt: 1), at: 311)
        #expect(allowed.map(\.eventType) == ["RetryAllowed"])
        #expect(scenario.state.status == .retryAvailable)
        #expect(scenario.state.currentAttemptNumber == 1, "no process before the app asks")
        #expect(scenario.state.nextDue == DueWork(kind: .abandonAbsent, attempt: 1, at: Fixture.t0.addingTimeInterval(2111)))

        let requested = try scenario.run(.issueToken, at: 400)
        guard case .processCreationRequested(let intent) = try #require(requested.first) else {
            Issue.record("expected ProcessCreationRequested, got \(requested)")
            return
        }
        #expect(intent.attempt == 2)
        #expect(intent.trigger == .tokenRequest)
        #expect(scenario.state.status == .creatingProcess)
    }

    @Test("link journey: the workers still create the retry's process (Unico notifies the person)")
    func linkRetry() throws {
        var scenario = Scenario()
        try scenario.run(Fixture.start(subject: Fixture.linkSubject), at: 0)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        // The link lives as long as its process: no expiry after five minutes, only at its end.
        let linkEnd = 1 + RetryPolicy.defaultLinkLifetime
        #expect(scenario.refusal(.expireToken(attempt: 1), at: 301)?.code == .tokenNotExpired)
        try scenario.run(.expireToken(attempt: 1), at: linkEnd)
        let events = try scenario.run(.retry(afterAttempt: 1), at: linkEnd + 10)
        #expect(events.map(\.eventType) == ["ProcessCreationRequested"])
        #expect(scenario.state.currentAttemptNumber == 2)
    }

    @Test("an absent user costs one process: abandoned after the policy's window, the budget unspent")
    func absentUser() throws {
        var scenario = try Scenario.sdkTokenIssued(policy: RetryPolicy(abandonAfter: 600))
        try scenario.run(.expireToken(attempt: 1), at: 301)
        try scenario.run(.retry(afterAttempt: 1), at: 311)
        let early = try #require(scenario.refusal(.abandonAbsent(afterAttempt: 1), at: 910))
        #expect(early.code == .retryNotDue)
        #expect(early.retryAfter == 1)
        let events = try scenario.run(.abandonAbsent(afterAttempt: 1), at: 911)
        #expect(events.map(\.eventType) == ["JourneyAbandoned"])
        #expect(scenario.state.status == .abandoned)
        #expect(scenario.state.abandonReason?.kind == .userAbsent)
        #expect(scenario.state.attempts.count == 1)
        #expect(scenario.state.attempts.compactMap(\.processID).count == 1)
        #expect(scenario.state.nextDue == nil)
    }

    @Test("once the capture opened, the next token request is a new capture with its own process")
    func newCaptureAfterOpened() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        let events = try scenario.run(.issueToken, at: 10)
        guard case .processCreationRequested(let intent) = try #require(events.last), events.count == 2 else {
            Issue.record("expected AttemptReplaced and ProcessCreationRequested, got \(events)")
            return
        }
        #expect(intent.attempt == 2)
        #expect(intent.trigger == .tokenRequest)
        #expect(scenario.state.attempt(1)?.supersededAt == Fixture.t0.addingTimeInterval(10))
        #expect(!events.contains { $0.eventType == "TokenIssued" }, "attempt 1's token is never handed out again")
    }

    @Test("a token request for a completed, abandoned or out-of-budget journey is a 409 naming the state")
    func refusedStates() throws {
        let completed = try #require(try Scenario.completed().refusal(.issueToken, at: 10))
        #expect(completed.code == .invalidTransition)
        #expect(completed.status == .completed)
        #expect(completed.message.contains("completed"))

        let abandoned = try #require(try Scenario.abandoned().refusal(.issueToken, at: 10))
        #expect(abandoned.status == .abandoned)
        #expect(abandoned.message.contains("abandoned"))

        let budget = try #require(
            try Scenario.sdkCaptureOpened(policy: RetryPolicy(maximumAttempts: 1)).refusal(.issueToken, at: 10))
        #expect(budget.code == .attemptsExhausted)
        #expect(budget.code.suggestedHTTPStatus == 409)
        #expect(budget.message.contains("captureOpened"))
    }
}

@Suite("Drop-offs the app reports")
struct DropOffTests {
    @Test("closed camera: recorded, the attempt fails, the next is allowed at once; coming back gets a new process")
    func closedCamera() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        let events = try scenario.run(.recordCaptureClosedByUser(attempt: 1), at: 20)
        #expect(events.map(\.eventType) == ["CaptureClosedByUser", "AttemptFailed"])
        guard case .attemptFailed(let failed) = events[1] else { return }
        #expect(failed.reason.kind == .closedByUser)
        #expect(failed.retryAt == Fixture.t0.addingTimeInterval(20))
        #expect(scenario.state.attempt(1)?.closedByUserAt == Fixture.t0.addingTimeInterval(20))
        #expect(try scenario.run(.recordCaptureClosedByUser(attempt: 1), at: 21).isEmpty, "a repeat is a duplicate")

        let next = try scenario.run(.issueToken, at: 22)
        #expect(next.map(\.eventType) == ["ProcessCreationRequested"])
        #expect(scenario.state.currentAttemptNumber == 2)
    }

    @Test("session timed out on the last attempt the policy allows abandons the journey")
    func timedOutExhausted() throws {
        var scenario = try Scenario.sdkCaptureOpened(policy: RetryPolicy(maximumAttempts: 1))
        let events = try scenario.run(.recordCaptureSessionTimedOut(attempt: 1), at: 20)
        #expect(events.map(\.eventType) == ["CaptureSessionTimedOut", "AttemptFailed", "JourneyAbandoned"])
        #expect(scenario.state.abandonReason?.kind == .attemptsExhausted)
    }

    @Test("a drop-off of a replaced attempt is only recorded")
    func supersededDropOff() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 11)
        let events = try scenario.run(.recordCaptureSessionTimedOut(attempt: 1), at: 12)
        guard case .captureSessionTimedOut(let recorded) = try #require(events.first), events.count == 1 else {
            Issue.record("expected one CaptureSessionTimedOut, got \(events)")
            return
        }
        #expect(recorded.superseded)
        #expect(scenario.state.status == .processCreated)
    }
}

@Suite("No approval lost")
struct NoApprovalLostTests {
    @Test("result before the retry: a capture finishing after the token's expiry, within the grace, is approved")
    func resultBeforeRetry() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        #expect(scenario.refusal(.expireToken(attempt: 1), at: 400)?.code == .tokenNotExpired)
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 420)
        #expect(scenario.state.status == .awaitingResult)
        try scenario.run(
            .recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 421)
        #expect(scenario.state.status == .completed)
        #expect(scenario.state.outcome == .approved)
        #expect(scenario.state.attempts.count == 1)
    }

    @Test("result after the retry: an earlier attempt's approval is fetched and completes the journey")
    func resultAfterRetry() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.expireToken(attempt: 1), at: 901)
        try scenario.run(.retry(afterAttempt: 1), at: 911)
        try scenario.run(.issueToken, at: 920)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 921)
        try scenario.run(.issueToken, at: 921)
        // Attempt 1's capture ends now: Unico's webhook for process 1.
        let webhook = try scenario.run(
            .recordWebhook(WebhookNotice(processID: Fixture.process1, state: "PROCESS_STATE_FINISHED")), at: 930)
        guard case .webhookReceived(let received) = try #require(webhook.first) else { return }
        #expect(received.superseded)
        #expect(scenario.state.status == .tokenIssued, "attempt 2 goes on")
        #expect(scenario.state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(930)))

        let events = try scenario.run(
            .recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 931)
        #expect(events.map(\.eventType) == ["ResultFetched", "JourneyCompleted"])
        guard case .journeyCompleted(let completed) = events[1] else { return }
        #expect(completed.attempt == 1)
        #expect(completed.processID == Fixture.process1)
        #expect(scenario.state.outcome == .approved)
        #expect(scenario.state.humanToken == Fixture.sealed("ht"))
    }

    @Test("an earlier attempt's Unico failure is recorded; the current attempt goes on")
    func earlierFailureRecorded() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 11)
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 12)
        let events = try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.failed, .error)), at: 13)
        #expect(events.map(\.eventType) == ["ResultFetched"])
        #expect(scenario.state.status == .processCreated)
        #expect(scenario.state.nextDue?.kind == .expireToken)
        #expect(
            scenario.refusal(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok)), at: 14)?.code == .staleAttempt)
    }
}

@Suite("The link fallback")
struct LinkTests {
    @Test("the current attempt's link is handed out and recorded")
    func issued() throws {
        var scenario = try Scenario.sdkTokenIssued()
        let events = try scenario.run(.issueLink, at: 10)
        guard case .linkIssued(let issued) = try #require(events.first) else { return }
        #expect(issued.attempt == 1)
        #expect(issued.expiresAt == Fixture.t0.addingTimeInterval(301))
        #expect(scenario.state.attempt(1)?.linkIssuedAt == Fixture.t0.addingTimeInterval(10))
    }

    @Test("the link is recorded once per attempt: later reads decide no event")
    func recordedOncePerAttempt() throws {
        var scenario = try Scenario.sdkTokenIssued()
        try scenario.run(.issueLink, at: 10)
        let recorded = scenario.state
        let again = try scenario.run(.issueLink, at: 20)
        let late = try scenario.run(.issueLink, at: 300)
        #expect(again.isEmpty && late.isEmpty)
        #expect(scenario.state == recorded)
        #expect(scenario.state.attempt(1)?.linkIssuedAt == Fixture.t0.addingTimeInterval(10))
        // A later read still refuses once the link expired.
        #expect(scenario.refusal(.issueLink, at: 301)?.code == .invalidTransition)
    }

    @Test("no live attempt, no link: 409 naming the state")
    func refused() throws {
        var scenario = try Scenario.sdkTokenIssued()
        try scenario.run(.expireToken(attempt: 1), at: 301)
        let error = try #require(scenario.refusal(.issueLink, at: 302))
        #expect(error.code == .invalidTransition)
        #expect(error.message.contains("retryScheduled"))
    }
}

@Suite("An attempt replaced, and the face-inference timeout")
struct ReplacedAttemptTests {
    @Test("a token request after the capture opened replaces the attempt: AttemptReplaced, then the new attempt")
    func newCapture() throws {
        var scenario = try Scenario.sdkCaptureOpened()
        let events = try scenario.run(.issueToken, at: 60)
        #expect(events.map(\.eventType) == ["AttemptReplaced", "ProcessCreationRequested"])
        guard case .attemptReplaced(let replaced) = try #require(events.first) else { return }
        #expect(replaced.attempt == 1 && replaced.replacedBy == 2 && replaced.reason == .newCapture)
        #expect(scenario.state.currentAttemptNumber == 2)
        #expect(scenario.state.attempt(1)?.failedAt == nil, "replaced, not failed")
    }

    @Test("a token request with under a minute left replaces the unopened attempt as a token refresh")
    func tokenRefresh() throws {
        var scenario = try Scenario.sdkTokenIssued()
        let events = try scenario.run(.issueToken, at: 250)
        #expect(events.map(\.eventType) == ["AttemptReplaced", "ProcessCreationRequested"])
        guard case .attemptReplaced(let replaced) = try #require(events.first) else { return }
        #expect(replaced.reason == .tokenRefresh && replaced.replacedBy == 2)
    }

    @Test("no replacement without a next attempt: the budget's refusal records nothing")
    func budgetSpent() throws {
        let scenario = try Scenario.sdkCaptureOpened(policy: RetryPolicy(maximumAttempts: 1))
        #expect(scenario.refusal(.issueToken, at: 60)?.code == .attemptsExhausted)
        #expect(scenario.state.currentAttemptNumber == 1)
    }

    @Test("face inference timed out: recorded once while the capture is open, the attempt goes on")
    func faceInference() throws {
        var scenario = try Scenario.sdkTokenIssued()
        #expect(scenario.refusal(.recordFaceInferenceTimedOut(attempt: 1), at: 3)?.code == .invalidTransition)
        try scenario.run(.recordCaptureOpened(attempt: 1), at: 3)
        let first = try scenario.run(.recordFaceInferenceTimedOut(attempt: 1), at: 10)
        #expect(first.map(\.eventType) == ["FaceInferenceTimedOut"])
        #expect(try scenario.run(.recordFaceInferenceTimedOut(attempt: 1), at: 11).isEmpty)
        #expect(scenario.state.status == .captureOpened)
        #expect(scenario.state.attempt(1)?.faceInferenceTimedOutAt == Fixture.t0.addingTimeInterval(10))
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 20)
        #expect(scenario.state.status == .awaitingResult)
    }
}
