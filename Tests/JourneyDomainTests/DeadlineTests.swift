import Foundation
@testable import JourneyDomain
import Testing

/// A journey's own deadline and attempt budget, set at its start (issue 26).
@Suite("Deadline and attempt budget")
struct DeadlineTests {
    /// An SDK journey started at t0 with a deadline `seconds` later (and an optional budget).
    static func started(
        deadline seconds: TimeInterval, maximumAttempts: Int? = nil,
        subject: SealedSubject = Fixture.subject
    ) throws -> Scenario {
        let valid = ValidatedStartJourney(
            environment: .uat, flow: Flow("humantoken"), purpose: .creditProcess,
            subject: ValidatedSubject(documentType: .brCPF, documentNumber: "52998224725"),
            maximumAttempts: maximumAttempts,
            deadline: Fixture.t0.addingTimeInterval(seconds))
        var start = valid.command(journeyID: Fixture.journeyID, subject: subject, processAtStart: false)
        start.subject = subject
        var scenario = Scenario()
        try scenario.run(.start(start), at: 0)
        return scenario
    }

    @Test func theDeadlineAbandonsTheJourneyAtItAndNotBefore() throws {
        var scenario = try Self.started(deadline: 3600)
        let deadline = Fixture.t0.addingTimeInterval(3600)
        #expect(scenario.state.deadline == deadline)
        // Earlier than the first-capture window: the deadline is the next due work.
        #expect(scenario.state.nextDue == DueWork(kind: .abandonAtDeadline, attempt: 0, at: deadline))
        #expect(scenario.state.continuationDeadline == deadline)
        let early = try #require(scenario.refusal(.abandonAtDeadline, at: 3599))
        #expect(early.code == .retryNotDue && early.retryAfter == 1)
        let events = try scenario.run(.abandonAtDeadline, at: 3600)
        guard case .journeyAbandoned(let abandoned)? = events.first, events.count == 1 else {
            Issue.record("expected JourneyAbandoned, got \(events)")
            return
        }
        #expect(abandoned.reason.kind == .deadlineReached)
        #expect(scenario.state.status == .abandoned && scenario.state.nextDue == nil)
    }

    @Test func noTokenLinkOrProcessAfterTheDeadlineEvenBeforeTheWorkersAbandon() throws {
        var scenario = try Self.started(deadline: 600)
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 11)
        try scenario.run(.issueToken, at: 12)
        // Past the deadline the current token is not handed out again, nor a new attempt made.
        let refusal = try #require(scenario.refusal(.issueToken, at: 600))
        #expect(refusal.code == .deadlineReached && refusal.status == .tokenIssued)
        #expect(refusal.message.contains("tokenIssued") && refusal.message.contains("deadline"))
        #expect(scenario.refusal(.issueLink, at: 601)?.code == .deadlineReached)
        // Its token expired before the deadline: a retry, then the deadline wins.
        var retrying = try Self.started(deadline: 400)
        try retrying.run(.issueToken, at: 10)
        try retrying.run(Fixture.created(1, Fixture.process1), at: 11)
        try retrying.run(.expireToken(attempt: 1), at: 311)
        #expect(retrying.state.status == .retryScheduled)
        try retrying.run(.retry(afterAttempt: 1), at: 321)
        #expect(retrying.state.nextDue?.kind == .abandonAtDeadline)
        #expect(retrying.refusal(.issueToken, at: 400)?.code == .deadlineReached)
        try retrying.run(.abandonAtDeadline, at: 400)
        #expect(retrying.state.abandonReason?.kind == .deadlineReached)
        // Once abandoned, the ended journey's own refusal.
        #expect(retrying.refusal(.issueToken, at: 401)?.code == .invalidTransition)
    }

    @Test func aCaptureOpenAtTheDeadlineIsAbandonedAndItsLateResultStillRecorded() throws {
        var scenario = try Self.started(deadline: 200)
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 11)
        try scenario.run(.recordCaptureOpened(attempt: 1), at: 12)
        #expect(scenario.state.nextDue?.kind == .abandonAtDeadline)
        try scenario.run(.abandonAtDeadline, at: 200)
        #expect(scenario.state.learnsLateResults)
        try scenario.run(.recordWebhook(WebhookNotice(processID: Fixture.process1, state: "PROCESS_STATE_FINISHED")), at: 210)
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        try scenario.run(
            .recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 211)
        #expect(scenario.state.status == .completed && scenario.state.abandonReason?.kind == .deadlineReached)
    }

    @Test func aCaptureThatEndedInTimeKeepsItsResultPastTheDeadline() throws {
        var scenario = try Self.started(deadline: 200)
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 11)
        try scenario.run(.recordCaptureOpened(attempt: 1), at: 12)
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 100)
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        #expect(scenario.refusal(.abandonAtDeadline, at: 200)?.code == .invalidTransition)
        try scenario.run(
            .recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 250)
        #expect(scenario.state.status == .completed && scenario.state.abandonedAt == nil)
    }

    @Test func theBudgetLowersTheDeploymentsAttemptsAndNeverRaisesThem() throws {
        var scenario = try Self.started(deadline: 86_400, maximumAttempts: 1)
        #expect(scenario.state.retryPolicy.maximumAttempts == 1)
        try scenario.run(.issueToken, at: 10)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 11)
        let events = try scenario.run(.expireToken(attempt: 1), at: 311)
        #expect(events.map(\.eventType) == ["TokenExpired", "AttemptFailed", "JourneyAbandoned"])
        #expect(scenario.state.abandonReason?.kind == .attemptsExhausted)
        #expect(JourneyLimits.policy(.standard, maximumAttempts: 9).maximumAttempts == 5)
        #expect(JourneyLimits.policy(.standard, maximumAttempts: nil) == .standard)
    }

    @Test func limitsNameTheirFields() {
        let now = Fixture.t0
        #expect(JourneyLimits.maximumAttempts(3, policy: .standard) == .success(3))
        for bad in [0, 6, -1] {
            guard case .failure(let issue) = JourneyLimits.maximumAttempts(bad, policy: .standard) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(issue.field == "maximumAttempts" && issue.message.contains("1 to 5"))
        }
        #expect(JourneyLimits.deadline("2026-11-12T09:00:00-03:00", now: now) == .success(now.addingTimeInterval(4 * 3600)))
        for bad in [
            "2026-11-12T08:00:00Z", "2026-11-12T07:00:00Z", "2026-12-13T08:00:00Z", "2026-11-13", "2026-11-13T08:00:00",
            "tomorrow",
        ] {
            guard case .failure(let issue) = JourneyLimits.deadline(bad, now: now) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(issue.field == "deadline")
        }
        #expect((try? JourneyLimits.deadline("2026-12-12T08:00:00Z", now: now).get()) != nil, "exactly 30 days")
    }

    @Test func theDeadlineRoundTripsAndAnOlderStartWithoutItStillReads() throws {
        let scenario = try Self.started(deadline: 3600.123_456_7)
        guard case .journeyStarted(let started)? = scenario.events.first else { Issue.record("no start"); return }
        let encoded = try JourneyEvent.journeyStarted(started).encoded()
        let text = String(decoding: encoded.data, as: UTF8.self)
        #expect(text.contains(#""deadline":"2026-11-12T09:00:00.123457Z""#))
        #expect(text.contains(#""maximumAttempts":5"#))
        #expect(try JourneyEvent(encoded) == .journeyStarted(started))
        #expect(EventReadingTests.agree("JourneyStarted", Array(encoded.data)))
        // Without a deadline nothing is written, so a start recorded before deadlines reads the same.
        guard case .journeyStarted(let plain) = EventCodingTests.samples[0] else { Issue.record("no start"); return }
        let old = try plain.encodedStart()
        #expect(!old.contains("deadline"))
        #expect(EventReadingTests.agree("JourneyStarted", old))
        let state = JourneyState().applying(try JourneyEvent(type: "JourneyStarted", data: Data(old.utf8)))
        #expect(state.deadline == nil && state.status == .started)
        let reloaded = try JSONDecoder().decode(JourneyState.self, from: try JSONEncoder().encode(scenario.state))
        #expect(reloaded.deadline == scenario.state.deadline)
    }
}

private extension JourneyStarted {
    func encodedStart() throws -> String {
        String(decoding: try JourneyEvent.journeyStarted(self).encoded().data, as: UTF8.self)
    }
}

extension DeadlineTests {
    @Test func aLinkEndsWithTheDeadlineAndTheDeadlineWinsTheTie() throws {
        var scenario = try Self.started(deadline: 3600, subject: Fixture.linkSubject)
        #expect(scenario.state.currentAttemptNumber == 1, "a link journey's process is made with the start")
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        let deadline = Fixture.t0.addingTimeInterval(3600)
        #expect(scenario.state.currentAttempt?.tokenExpiresAt == deadline)
        #expect(scenario.state.nextDue == DueWork(kind: .abandonAtDeadline, attempt: 1, at: deadline))
        try scenario.run(.abandonAtDeadline, at: 3600)
        #expect(scenario.state.abandonReason?.kind == .deadlineReached)
    }
}
