import Foundation
import JourneyDomain
import Testing

@Suite("Start, process creation and retry")
struct StartAndProcessTests {
    @Test("start records the journey and the intent of attempt 1 with a deterministic reference")
    func start() throws {
        var scenario = Scenario()
        let events = try scenario.run(Fixture.start(), at: 0)
        #expect(events.map(\.eventType) == ["JourneyStarted", "ProcessCreationRequested"])
        guard case .journeyStarted(let started) = events[0], case .processCreationRequested(let requested) = events[1] else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(started.attempt == 0)
        #expect(started.subject == Fixture.subject)
        #expect(started.retryPolicy == .standard)
        #expect(requested.attempt == 1)
        #expect(requested.unicoClientReference == "jrn_01-a1")
        #expect(requested.trigger == .initial)

        let state = scenario.state
        #expect(state.status == .creatingProcess)
        #expect(state.journeyID == Fixture.journeyID)
        #expect(state.environment == .uat)
        #expect(state.clientReference == "order-42")
        #expect(state.currentAttemptNumber == 1)
        #expect(state.nextDue == DueWork(kind: .reconcileProcessCreation, attempt: 1, at: Fixture.t0.addingTimeInterval(60)))
    }

    @Test("the client reference is the same whenever attempt n of a journey is requested")
    func deterministicReference() {
        let first = ProcessCreationRequested.unicoClientReference(journeyID: JourneyID("j-9"), attempt: 3)
        let again = ProcessCreationRequested.unicoClientReference(journeyID: JourneyID("j-9"), attempt: 3)
        #expect(first == "j-9-a3")
        #expect(first == again)
        #expect(first != ProcessCreationRequested.unicoClientReference(journeyID: JourneyID("j-9"), attempt: 4))
    }

    @Test("a second start is refused")
    func startTwice() throws {
        let scenario = try Scenario.creatingProcess()
        let error = try #require(scenario.refusal(Fixture.start(), at: 5))
        #expect(error.code == .alreadyStarted)
        #expect(error.message.contains("creatingProcess"))
    }

    @Test("process created: the token lives 300 s from the decision, and its expiry is due")
    func processCreated() throws {
        var scenario = try Scenario.creatingProcess()
        let events = try scenario.run(Fixture.created(1, Fixture.process1), at: 1.5)
        guard case .processCreated(let created) = try #require(events.first) else {
            Issue.record("expected ProcessCreated")
            return
        }
        #expect(created.tokenExpiresAt == Fixture.t0.addingTimeInterval(301.5))
        let state = scenario.state
        #expect(state.status == .processCreated)
        #expect(state.currentAttempt?.processID == Fixture.process1)
        #expect(state.currentAttempt?.webAppToken == Fixture.sealed("webAppToken-1"))
        #expect(state.currentAttempt?.link == Fixture.sealed("link-1"))
        #expect(state.nextDue == DueWork(kind: .expireToken, attempt: 1, at: Fixture.t0.addingTimeInterval(301.5)))
    }

    @Test("process created with a known expiry keeps it")
    func processCreatedWithExpiry() throws {
        var scenario = try Scenario.creatingProcess()
        let expiry = Fixture.t0.addingTimeInterval(290)
        try scenario.run(Fixture.created(1, Fixture.process1, expiresAt: expiry), at: 2)
        #expect(scenario.state.currentAttempt?.tokenExpiresAt == expiry)
    }

    @Test("a result for another attempt than the current one is stale")
    func staleProcessCreated() throws {
        let scenario = try Scenario.creatingProcess()
        let error = try #require(scenario.refusal(Fixture.created(2, Fixture.process2), at: 1))
        #expect(error.code == .staleAttempt)
        #expect(error.attempt == 2)
    }

    @Test("a retryable creation failure schedules a retry after the initial interval")
    func retryableCreationFailure() throws {
        var scenario = try Scenario.creatingProcess()
        let failure = ProcessCreationFailure(httpStatus: 503, message: "service unavailable")
        #expect(failure.retryable)
        let events = try scenario.run(.recordProcessCreationFailed(attempt: 1, failure: failure), at: 2)
        #expect(events.map(\.eventType) == ["ProcessCreationFailed", "AttemptFailed"])
        let state = scenario.state
        #expect(state.status == .retryScheduled)
        #expect(state.lastFailure?.kind == .processCreationFailed)
        #expect(state.currentAttempt?.creationFailure == failure)
        #expect(state.nextDue == DueWork(kind: .retry, attempt: 1, at: Fixture.t0.addingTimeInterval(12)))
    }

    @Test("Retry-After from a 429 pushes the retry beyond the backoff")
    func retryAfter() throws {
        var scenario = try Scenario.creatingProcess()
        let failure = ProcessCreationFailure(httpStatus: 429, message: "rate limited", retryAfter: 45)
        try scenario.run(.recordProcessCreationFailed(attempt: 1, failure: failure), at: 2)
        #expect(scenario.state.currentAttempt?.retryAt == Fixture.t0.addingTimeInterval(47))
    }

    @Test("a 400 from Create Process abandons: a fresh process would fail the same way")
    func nonRetryableCreationFailure() throws {
        var scenario = try Scenario.creatingProcess()
        let failure = ProcessCreationFailure(httpStatus: 400, errorCode: 3, message: "invalid person.duiValue")
        #expect(!failure.retryable)
        let events = try scenario.run(.recordProcessCreationFailed(attempt: 1, failure: failure), at: 2)
        #expect(events.map(\.eventType) == ["ProcessCreationFailed", "AttemptFailed", "JourneyAbandoned"])
        let state = scenario.state
        #expect(state.status == .abandoned)
        #expect(state.abandonReason?.kind == .nonRetryableFailure)
        #expect(state.nextDue == nil)
    }

    @Test("link journey: the retry waits for its time, then requests attempt 2 and supersedes attempt 1")
    func retry() throws {
        var scenario = try Scenario.creatingProcess(subject: Fixture.linkSubject)
        try scenario.run(
            .recordProcessCreationFailed(attempt: 1, failure: ProcessCreationFailure(httpStatus: nil, message: "timeout")),
            at: 2
        )
        let early = try #require(scenario.refusal(.retry(afterAttempt: 1), at: 11.5))
        #expect(early.code == .retryNotDue)
        #expect(early.message.contains("due in 1 s"))
        #expect(early.retryAfter == 0.5)

        let events = try scenario.run(.retry(afterAttempt: 1), at: 12)
        guard case .processCreationRequested(let requested) = try #require(events.first) else {
            Issue.record("expected ProcessCreationRequested")
            return
        }
        #expect(requested.attempt == 2)
        #expect(requested.trigger == .retry)
        #expect(requested.unicoClientReference == "jrn_01-a2")
        let state = scenario.state
        #expect(state.status == .creatingProcess)
        #expect(state.retryCount == 1)
        #expect(state.attempt(1)?.supersededAt == Fixture.t0.addingTimeInterval(12))
        #expect(state.currentAttempt?.supersededAt == nil)
    }

    @Test("link journey: a second worker's retry for the same attempt is stale")
    func doubleRetry() throws {
        var scenario = try Scenario.creatingProcess(subject: Fixture.linkSubject)
        try scenario.run(
            .recordProcessCreationFailed(attempt: 1, failure: ProcessCreationFailure(httpStatus: nil, message: "timeout")),
            at: 2
        )
        try scenario.run(.retry(afterAttempt: 1), at: 20)
        let error = try #require(scenario.refusal(.retry(afterAttempt: 1), at: 20))
        #expect(error.code == .staleAttempt)
    }
}
