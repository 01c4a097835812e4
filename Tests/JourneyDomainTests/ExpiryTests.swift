import Foundation
import JourneyDomain
import Testing

@Suite("Token expiry")
struct ExpiryTests {
    @Test("expiry is refused until 300 s after creation")
    func notYet() throws {
        let scenario = try Scenario.tokenIssued()
        let error = try #require(scenario.refusal(.expireToken(attempt: 1), at: 300.999))
        #expect(error.code == .tokenNotExpired)
        #expect(error.message.contains("1 s of its lifetime remain"))
    }

    @Test("at 300 s without a callback the token expires and a retry is scheduled")
    func expires() throws {
        var scenario = try Scenario.tokenIssued()
        let events = try scenario.run(.expireToken(attempt: 1), at: 301)
        #expect(events.map(\.eventType) == ["TokenExpired", "AttemptFailed"])
        guard case .tokenExpired(let expired) = events[0], case .attemptFailed(let failed) = events[1] else { return }
        #expect(expired.detectedBy == .timer)
        #expect(expired.expiresAt == Fixture.t0.addingTimeInterval(301))
        #expect(failed.reason.kind == .tokenExpired)
        #expect(failed.retryAt == Fixture.t0.addingTimeInterval(311))
        let state = scenario.state
        #expect(state.status == .retryScheduled)
        #expect(state.currentAttempt?.tokenExpiredAt == Fixture.t0.addingTimeInterval(301))
        #expect(state.nextDue == DueWork(kind: .retry, attempt: 1, at: Fixture.t0.addingTimeInterval(311)))
    }

    @Test("an opened capture holds its attempt for the grace after the token's expiry, then expires")
    func expiresAfterCaptureOpened() throws {
        var scenario = try Scenario.captureOpened()
        // Token expires at t0+301; the default grace of 600 s holds the opened capture until t0+901.
        #expect(scenario.state.nextDue == DueWork(kind: .expireToken, attempt: 1, at: Fixture.t0.addingTimeInterval(901)))
        let early = try #require(scenario.refusal(.expireToken(attempt: 1), at: 900))
        #expect(early.code == .tokenNotExpired)
        #expect(early.message.contains("opened capture"))
        let events = try scenario.run(.expireToken(attempt: 1), at: 901)
        #expect(events.first?.eventType == "TokenExpired")
    }

    @Test("the grace is the journey's policy")
    func configurableGrace() throws {
        var scenario = try Scenario.captureOpened(policy: RetryPolicy(captureGrace: 30))
        #expect(scenario.state.nextDue?.at == Fixture.t0.addingTimeInterval(331))
        #expect(scenario.refusal(.expireToken(attempt: 1), at: 330)?.code == .tokenNotExpired)
        try scenario.run(.expireToken(attempt: 1), at: 331)
        #expect(scenario.state.status == .retryScheduled)
    }

    @Test("a token never opened expires at its lifetime, without grace")
    func unopenedNoGrace() throws {
        var scenario = try Scenario.tokenIssued()
        #expect(scenario.state.nextDue?.at == Fixture.t0.addingTimeInterval(301))
        try scenario.run(.expireToken(attempt: 1), at: 301)
        #expect(scenario.state.status == .retryScheduled)
    }

    @Test("after a success callback the token is never expired")
    func noExpiryAfterCallback() throws {
        let scenario = try Scenario.awaitingResult()
        let error = try #require(scenario.refusal(.expireToken(attempt: 1), at: 1_000))
        #expect(error.code == .invalidTransition)
        #expect(error.message.contains("awaitingResult"))
    }

    @Test("an expiry timer for a replaced attempt is stale")
    func staleTimer() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 250)
        let error = try #require(scenario.refusal(.expireToken(attempt: 1), at: 301))
        #expect(error.code == .staleAttempt)
    }

    @Test("expiry of the last allowed attempt abandons the journey")
    func lastAttemptExpires() throws {
        var scenario = try Scenario.tokenIssued(policy: RetryPolicy(maximumAttempts: 1))
        let events = try scenario.run(.expireToken(attempt: 1), at: 301)
        #expect(events.map(\.eventType) == ["TokenExpired", "AttemptFailed", "JourneyAbandoned"])
        let state = scenario.state
        #expect(state.status == .abandoned)
        #expect(state.abandonReason?.kind == .attemptsExhausted)
        #expect(state.nextDue == nil)
    }

    @Test("73305 from the SDK records an expiry detected by callback")
    func expiredCallback() throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .tokenExpired)), at: 50)
        #expect(events.map(\.eventType) == ["CallbackReceived", "TokenExpired", "AttemptFailed"])
        guard case .tokenExpired(let expired) = events[1], case .attemptFailed(let failed) = events[2] else { return }
        #expect(expired.detectedBy == .sdkCallback)
        #expect(failed.reason.kind == .tokenExpired)
        #expect(failed.reason.sdkCode == .tokenExpired)
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.lastErrorCode == .tokenExpired)
    }
}
