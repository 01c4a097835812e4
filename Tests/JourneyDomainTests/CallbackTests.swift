import Foundation
import JourneyDomain
import Testing

@Suite("Capture and callbacks")
struct CallbackTests {
    @Test("capture opened moves the attempt and is recorded once")
    func captureOpened() throws {
        var scenario = try Scenario.tokenIssued()
        let first = try scenario.run(.recordCaptureOpened(attempt: 1), at: 3)
        let again = try scenario.run(.recordCaptureOpened(attempt: 1), at: 4)
        #expect(first.map(\.eventType) == ["CaptureOpened"])
        #expect(again.isEmpty)
        #expect(scenario.state.status == .captureOpened)
        #expect(scenario.state.currentAttempt?.captureOpenedAt == Fixture.t0.addingTimeInterval(3))
    }

    @Test("onSuccess moves to awaiting the result; the fetch is due at once")
    func success() throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 40)
        #expect(events.map(\.eventType) == ["CallbackReceived"])
        let state = scenario.state
        #expect(state.status == .awaitingResult)
        #expect(state.outcome == nil, "onSuccess is not an approval")
        #expect(state.currentAttempt?.callbackAt == Fixture.t0.addingTimeInterval(40))
        #expect(state.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(40)))
    }

    @Test("onSuccess with another process id is refused")
    func mismatch() throws {
        let scenario = try Scenario.captureOpened()
        let error = try #require(
            scenario.refusal(.recordCallback(attempt: 1, outcome: .success(processID: ProcessID("proc-x"))), at: 40)
        )
        #expect(error.code == .processMismatch)
        #expect(error.code.suggestedHTTPStatus == 422)
    }

    @Test("a callback for an attempt that does not exist is refused")
    func unknownAttempt() throws {
        let scenario = try Scenario.captureOpened()
        let error = try #require(scenario.refusal(.recordCallback(attempt: 3, outcome: .error(code: 73302)), at: 40))
        #expect(error.code == .unknownAttempt)
        #expect(error.message.contains("it has 1 attempt"))
    }

    @Test("a retryable SDK error schedules a fresh attempt", arguments: [SDKErrorCode.authenticationFailed])
    func retryableError(code: SDKErrorCode) throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: code)), at: 30, random: 0.5)
        #expect(events.map(\.eventType) == ["CallbackReceived", "AttemptFailed"])
        let state = scenario.state
        #expect(state.status == .retryScheduled)
        #expect(state.lastErrorCode == code)
        #expect(state.currentAttempt?.retryAt == Fixture.t0.addingTimeInterval(30 + 9))
    }

    @Test(
        "a non-retryable SDK error abandons with the code",
        arguments: [
            SDKErrorCode.emptyToken, .simulator, .captureRefused, .tokenRejected, .notAvailableInLite, .missingOnSuccess,
        ]
    )
    func nonRetryableError(code: SDKErrorCode) throws {
        var scenario = try Scenario.captureOpened()
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: code)), at: 30)
        #expect(events.map(\.eventType) == ["CallbackReceived", "AttemptFailed", "JourneyAbandoned"])
        let state = scenario.state
        #expect(state.status == .abandoned)
        #expect(state.abandonReason?.kind == .nonRetryableFailure)
        #expect(state.abandonReason?.sdkCode == code)
        #expect(state.lastErrorCode == code)
    }

    /// Every code off the SDK Lite page: the full SDK's (camera denied among 73705–73713) and one listed nowhere.
    static let offPageCodes = SDKErrorCatalog.fullSDK.map(\.code) + [99_999]

    @Test(
        "a code off the SDK Lite page fails the attempt; the person's next token request gets attempt 2",
        arguments: offPageCodes)
    func offPageCodeKeepsTheJourneyOpen(code: SDKErrorCode) throws {
        var scenario = try Scenario.captureOpened()
        let failed = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: code)), at: 30)
        #expect(failed.map(\.eventType) == ["CallbackReceived", "AttemptFailed"], "the journey is not abandoned")
        guard case .attemptFailed(let failure) = failed[1] else { return }
        #expect(failure.reason.sdkCode == code)
        #expect(failure.reason.retryable)
        #expect(failure.retryAt != nil)
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.lastErrorCode == code)

        // The person allowed the camera (or pressed capture again) a minute later.
        let next = try scenario.run(.issueToken, at: 90)
        guard case .processCreationRequested(let requested) = try #require(next.first) else {
            Issue.record("expected a new attempt, got \(next.map(\.eventType))")
            return
        }
        #expect(requested.attempt == 2)
        #expect(requested.trigger == .tokenRequest)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 91)
        #expect(try scenario.run(.issueToken, at: 92).map(\.eventType) == ["TokenIssued"])
        #expect(scenario.state.currentAttempt?.number == 2)
    }

    @Test("an off-page code still spends the retry budget: the last attempt it fails abandons the journey")
    func offPageCodeWithinBudget() throws {
        let denied = SDKErrorCode(rawValue: SDKErrorCode.sessionStatusCodes.lowerBound)
        var scenario = try Scenario.captureOpened(policy: RetryPolicy(maximumAttempts: 2))
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: denied)), at: 30)
        try scenario.run(.issueToken, at: 40)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 41)
        try scenario.run(.issueToken, at: 42)
        try scenario.run(.recordCaptureOpened(attempt: 2), at: 43)
        let events = try scenario.run(.recordCallback(attempt: 2, outcome: .error(code: denied)), at: 50)
        #expect(events.map(\.eventType) == ["CallbackReceived", "AttemptFailed", "JourneyAbandoned"])
        #expect(scenario.state.abandonReason?.kind == .attemptsExhausted)
    }

    @Test(
        "a policy that lists an off-page code as non-retryable abandons on it",
        arguments: [SDKErrorCode.userCancelled, .environmentNotSet, 99_999])
    func offPageCodeListedByThePolicy(code: SDKErrorCode) throws {
        var scenario = try Scenario.captureOpened(policy: RetryPolicy(nonRetryableCodes: [code]))
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: code)), at: 30)
        #expect(events.map(\.eventType) == ["CallbackReceived", "AttemptFailed", "JourneyAbandoned"])
        #expect(scenario.state.abandonReason?.kind == .nonRetryableFailure)
        #expect(scenario.state.abandonReason?.sdkCode == code)
    }

    @Test("the same callback reported twice is recorded once")
    func duplicate() throws {
        var scenario = try Scenario.awaitingResult()
        let again = try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 9)
        #expect(again.isEmpty)
    }

    @Test("a callback for a superseded attempt is recorded but does not move the current one")
    func superseded() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 250)
        try scenario.run(Fixture.created(2, Fixture.process2), at: 251)
        try scenario.run(.issueToken, at: 252)
        let before = scenario.state

        let success = try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 260)
        let error = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .tokenRejected)), at: 261)
        #expect(success.map(\.eventType) == ["CallbackReceived"])
        #expect(error.map(\.eventType) == ["CallbackReceived"], "no AttemptFailed, no abandonment")
        guard case .callbackReceived(let recorded) = success[0] else { return }
        #expect(recorded.superseded)
        #expect(recorded.attempt == 1)

        let after = scenario.state
        #expect(after.status == .tokenIssued)
        #expect(after.currentAttempt == before.currentAttempt)
        #expect(after.supersededCallbacks == 2)
        #expect(after.lastErrorCode == nil)
        #expect(after.attempt(1)?.callbackOutcome == .success(processID: Fixture.process1))
        // The superseded capture ended with onSuccess: its result is still fetched (no approval lost).
        #expect(before.nextDue?.kind == .expireToken)
        #expect(after.nextDue == DueWork(kind: .fetchResult, attempt: 1, at: Fixture.t0.addingTimeInterval(260)))
        #expect(after.attemptsAwaitingResult.map(\.number) == [1])
    }

    @Test("a late onSuccess after the timer expired the token wins over the scheduled retry")
    func lateSuccess() throws {
        var scenario = try Scenario.captureOpened()
        try scenario.run(.expireToken(attempt: 1), at: 901)
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 905)
        let state = scenario.state
        #expect(state.status == .awaitingResult)
        #expect(state.currentAttempt?.retryAt == nil)
        #expect(state.nextDue?.kind == .fetchResult)
    }

    @Test("an error callback after the attempt already failed changes nothing but the record")
    func lateError() throws {
        var scenario = try Scenario.retryScheduled()
        let before = scenario.state
        let events = try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .tokenRejected)), at: 6)
        #expect(events.map(\.eventType) == ["CallbackReceived"])
        #expect(scenario.state.status == .retryScheduled)
        #expect(scenario.state.nextDue == before.nextDue)
    }

    @Test("capture opened for a superseded attempt is recorded without moving")
    func supersededCapture() throws {
        var scenario = try Scenario.tokenIssued()
        try scenario.run(.issueToken, at: 250)
        let events = try scenario.run(.recordCaptureOpened(attempt: 1), at: 251)
        guard case .captureOpened(let opened) = try #require(events.first) else { return }
        #expect(opened.superseded)
        #expect(scenario.state.status == .creatingProcess)
    }
}
