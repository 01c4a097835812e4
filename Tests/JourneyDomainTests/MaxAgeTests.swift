import Foundation
@testable import JourneyDomain
import Testing

/// A journey's maximum age (issue 23): whatever it waits for, a journey still open at its start
/// plus the policy's `maximumAge` is due for abandonment (`maxAgeReached`).
@Suite("Maximum journey age")
struct MaxAgeTests {
    static let day: TimeInterval = 86_400

    @Test func aJourneyAwaitingAResultForEverIsAbandonedAtItsMaximumAge() throws {
        var scenario = try Scenario.awaitingResult()
        let maxAge = Fixture.t0.addingTimeInterval(30 * Self.day)
        #expect(scenario.state.maxAgeAt == maxAge)
        // Get Process keeps answering "not finished": a fetch a minute later, every time.
        try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 5)
        #expect(scenario.state.nextDue?.kind == .fetchResult)
        // A month of fetches later, the maximum age comes before the next one.
        try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.created, .unspecified)), at: 30 * Self.day - 1)
        #expect(scenario.state.status == .awaitingResult)
        #expect(scenario.state.nextDue == DueWork(kind: .abandonAtMaxAge, attempt: 1, at: maxAge))

        let early = try #require(scenario.refusal(.abandonAtMaxAge, at: 30 * Self.day - 1))
        #expect(early.code == .retryNotDue && early.retryAfter == 1)
        let events = try scenario.run(.abandonAtMaxAge, at: 30 * Self.day)
        guard case .journeyAbandoned(let abandoned)? = events.first, events.count == 1 else {
            Issue.record("expected JourneyAbandoned, got \(events)")
            return
        }
        #expect(abandoned.reason.kind == .maxAgeReached)
        #expect(abandoned.reason.detail.contains("30 days"))
        // Nothing is due any more: no late result is fetched, the journey is done.
        #expect(scenario.state.status == .abandoned && scenario.state.nextDue == nil)
        #expect(!scenario.state.learnsLateResults)
        _ = try scenario.run(
            .recordWebhook(WebhookNotice(processID: Fixture.process1, state: "finished", result: "ok")),
            at: 30 * Self.day + 60)
        #expect(scenario.state.nextDue == nil)
    }

    @Test func everyOpenStatusHasTheMaximumAgeAsItsLatestDueWork() throws {
        let policy = RetryPolicy(maximumAge: 3 * Self.day)
        var states: [JourneyState] = []
        states.append(try Scenario.creatingProcess(policy: policy).state)
        states.append(try Scenario.tokenIssued(policy: policy).state)
        states.append(try Scenario.captureOpened(policy: policy).state)
        for state in states {
            let due = try #require(state.nextDue, "\(state.status)")
            #expect(due.at <= Fixture.t0.addingTimeInterval(3 * Self.day), "\(state.status): \(due)")
            #expect(state.isPastMaxAge(Fixture.t0.addingTimeInterval(3 * Self.day)))
            #expect(!state.isPastMaxAge(Fixture.t0.addingTimeInterval(3 * Self.day - 1)))
        }
        var open = try Scenario.captureOpened(policy: policy)
        try open.run(.abandonAtMaxAge, at: 3 * Self.day)
        #expect(open.state.abandonReason?.kind == .maxAgeReached)
        #expect(!open.state.isPastMaxAge(Fixture.t0.addingTimeInterval(4 * Self.day)), "ended: nothing more to do")
        // Ended journeys are left alone.
        #expect(try Scenario.completed().refusal(.abandonAtMaxAge, at: 31 * Self.day)?.code == .invalidTransition)
        #expect(try Scenario.abandoned().refusal(.abandonAtMaxAge, at: 31 * Self.day)?.code == .invalidTransition)
    }

    @Test func aDeadlineComesFirstAndMayNotLieBeyondTheMaximumAge() throws {
        let policy = RetryPolicy(maximumAge: 2 * Self.day)
        #expect(JourneyLimits.maximumDeadline(policy: policy) == 2 * Self.day)
        #expect(JourneyLimits.maximumDeadline(policy: .standard) == JourneyTiming.maximumDeadline)
        let now = Fixture.t0
        let beyond = Date.ISO8601FormatStyle().format(now.addingTimeInterval(3 * Self.day))
        guard
            case .failure(let issue) = JourneyLimits.deadline(
                beyond, now: now, maximum: JourneyLimits.maximumDeadline(policy: policy))
        else {
            Issue.record("a deadline past the maximum age was accepted")
            return
        }
        #expect(issue.field == "deadline" && issue.message.contains("2 days"))
        let within = Date.ISO8601FormatStyle().format(now.addingTimeInterval(Self.day))
        #expect(throws: Never.self) {
            try JourneyLimits.deadline(within, now: now, maximum: JourneyLimits.maximumDeadline(policy: policy)).get()
        }
    }

    @Test func thePolicyRecordsANonDefaultMaximumAgeAndReadsAnAbsentOneAsTheDefault() throws {
        // A policy recorded before maximum ages (no key) reads as 30 days: older journeys age too.
        let old =
            #"{"initialInterval":10,"backoffCoefficient":2,"maximumInterval":300,"maximumAttempts":5,"jitterFraction":0.2,"nonRetryableCodes":[73006],"captureGrace":600,"abandonAfter":1800}"#
        let decoded = try JSONDecoder().decode(RetryPolicy.self, from: Data(old.utf8))
        #expect(decoded.maximumAge == RetryPolicy.defaultMaximumAge && RetryPolicy.defaultMaximumAge == 30 * Self.day)
        // The default is not written (earlier policies read the same); another value is.
        let standard = String(decoding: try JSONEncoder().encode(RetryPolicy.standard), as: UTF8.self)
        #expect(!standard.contains("maximumAge"))
        let longer = RetryPolicy(maximumAge: 90 * Self.day)
        let encoded = try JSONEncoder().encode(longer)
        #expect(String(decoding: encoded, as: UTF8.self).contains("\"maximumAge\":7776000"))
        #expect(try JSONDecoder().decode(RetryPolicy.self, from: encoded) == longer)
        // The start event carries it, through both readers.
        var scenario = Scenario()
        try scenario.run(Fixture.start(policy: longer), at: 0)
        let started = try #require(scenario.events.first)
        let encodedEvent = try started.encoded()
        for read in [
            try JourneyEvent(encodedEvent),
            try JourneyEvent(
                type: encodedEvent.type,
                text: String(decoding: encodedEvent.data, as: UTF8.self)),
        ] {
            #expect(Journey.fold([read]).maxAgeAt == Fixture.t0.addingTimeInterval(90 * Self.day))
        }
    }
}
