import Foundation
import JourneyDomain
import Testing

@Suite("Token issue: one token per capture")
struct TokenTests {
    @Test("before the capture opens, a second request (a double tap) gets the same token and expiry")
    func reuse() throws {
        var scenario = try Scenario.processCreated()
        let first = try scenario.run(.issueToken, at: 2)
        let second = try scenario.run(.issueToken, at: 100)
        guard case .tokenIssued(let a) = try #require(first.first), case .tokenIssued(let b) = try #require(second.first) else {
            Issue.record("expected TokenIssued twice")
            return
        }
        #expect(!a.reused)
        #expect(b.reused)
        #expect(a.expiresAt == Fixture.t0.addingTimeInterval(301))
        #expect(b.expiresAt == a.expiresAt)
        #expect(scenario.state.currentAttemptNumber == 1)
        #expect(scenario.state.currentAttempt?.tokensIssued == 2)
        #expect(scenario.state.currentAttempt?.firstTokenIssuedAt == Fixture.t0.addingTimeInterval(2))
        #expect(scenario.state.currentAttempt?.lastTokenIssuedAt == Fixture.t0.addingTimeInterval(100))
    }

    @Test("only an attempt's first reuse is recorded: later reuses decide no event and change nothing")
    func laterReusesAreNotRecorded() throws {
        var scenario = try Scenario.tokenIssued()
        let reuse = try scenario.run(.issueToken, at: 10)
        #expect(reuse.map(\.eventType) == ["TokenIssued"])
        #expect(scenario.state.currentAttempt?.tokenReuseRecorded == true)
        let recorded = scenario.state
        for second: TimeInterval in [20, 100, 301 - 60] {
            let events = try scenario.run(.issueToken, at: second)
            #expect(events.isEmpty)
        }
        #expect(scenario.state == recorded)
        #expect(scenario.state.currentAttempt?.tokensIssued == 2)
    }

    @Test("a reuse that is not recorded still gives way to a new attempt under 60 s left or once the capture opened")
    func unrecordedReuseStillRefreshes() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 10)
        let refreshed = try scenario.run(.issueToken, at: 301 - 59.999)
        #expect(refreshed.map(\.eventType) == ["AttemptReplaced", "ProcessCreationRequested"])
        var opened = try Scenario.tokenIssued()
        try opened.run(.issueToken, at: 10)
        try opened.run(.recordCaptureOpened(attempt: 1), at: 11)
        let next = try opened.run(.issueToken, at: 12)
        #expect(next.map(\.eventType) == ["AttemptReplaced", "ProcessCreationRequested"])
    }

    @Test("exactly 60 s left still hands out the unopened token")
    func thresholdReuse() throws {
        var scenario = try Scenario.tokenIssued()
        let events = try scenario.run(.issueToken, at: 301 - 60)
        #expect(events.map(\.eventType) == ["TokenIssued"])
    }

    @Test("under 60 s left starts a new attempt instead")
    func thresholdRefresh() throws {
        var scenario = try Scenario.tokenIssued()
        let events = try scenario.run(.issueToken, at: 301 - 59.999)
        guard case .processCreationRequested(let requested) = try #require(events.last), events.count == 2 else {
            Issue.record("expected AttemptReplaced and ProcessCreationRequested, got \(events)")
            return
        }
        #expect(requested.attempt == 2)
        #expect(requested.trigger == .tokenRefresh)
        #expect(scenario.state.status == .creatingProcess)
        #expect(scenario.state.attempt(1)?.supersededAt != nil)
    }

    @Test("a refresh beyond the policy's attempts is refused and changes nothing")
    func refreshExhausted() throws {
        let scenario = try Scenario.tokenIssued(policy: RetryPolicy(maximumAttempts: 1))
        let error = try #require(scenario.refusal(.issueToken, at: 250))
        #expect(error.code == .attemptsExhausted)
        #expect(error.code.suggestedHTTPStatus == 409)
        #expect(error.message.contains("allows 1 attempt"))
        #expect(error.message.contains("tokenIssued"))
    }

    @Test("the app asking for a token during a scheduled retry gets a new attempt at once (the user is there)")
    func tokenDuringRetry() throws {
        var scenario = try Scenario.retryScheduled()
        let events = try scenario.run(.issueToken, at: 5)
        guard case .processCreationRequested(let requested) = try #require(events.first) else {
            Issue.record("expected ProcessCreationRequested")
            return
        }
        #expect(requested.attempt == 2)
        #expect(requested.trigger == .tokenRequest)
    }

    @Test("asking while Create Process is in flight is a conflict, not a second process")
    func pendingCreation() throws {
        let scenario = try Scenario.creatingProcess()
        let error = try #require(scenario.refusal(.issueToken, at: 1))
        #expect(error.code == .processCreationPending)
    }

    @Test("a new attempt's token is issued after its process is created")
    func refreshThenIssue() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 260)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 261)
        let events = try scenario.run(.issueToken, at: 262)
        guard case .tokenIssued(let issued) = try #require(events.first) else {
            Issue.record("expected TokenIssued")
            return
        }
        #expect(issued.attempt == 2)
        #expect(!issued.reused)
        #expect(issued.expiresAt == Fixture.t0.addingTimeInterval(561))
        #expect(scenario.state.status == .tokenIssued)
    }
}
