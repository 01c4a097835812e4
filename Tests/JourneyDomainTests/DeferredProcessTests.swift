import Foundation
import JourneyDomain
import Testing

/// An SDK journey started without its process (seed: "Create it right before opening the
/// capture"): the app's first token request makes attempt 1.
@Suite("Start without a process")
struct DeferredProcessTests {
    static var sdkSubject: SealedSubject {
        var subject = Fixture.subject
        subject.notificationChannels = []
        return subject
    }

    static func start(processAtStart: Bool, subject: SealedSubject = sdkSubject) -> JourneyCommand {
        .start(
            StartJourney(
                journeyID: Fixture.journeyID, environment: .uat, flow: Flow("humantoken"),
                purpose: .creditProcess, subject: subject, processAtStart: processAtStart))
    }

    @Test func theStartRecordsOnlyTheJourneyAndTheFirstTokenRequestMakesAttemptOne() throws {
        var scenario = Scenario()
        #expect(try scenario.run(Self.start(processAtStart: false), at: 0).map(\.eventType) == ["JourneyStarted"])
        #expect(scenario.state.status == .started)
        #expect(scenario.state.currentAttemptNumber == 0)
        // A day later the person opens the camera: attempt 1's intent, no earlier process.
        let events = try scenario.run(.issueToken, at: 86_400)
        #expect(events.map(\.eventType) == ["ProcessCreationRequested"])
        #expect(scenario.state.status == .creatingProcess && scenario.state.currentAttemptNumber == 1)
    }

    @Test func aStartedJourneyWaitsSevenDaysForItsAppThenIsAbandonedAsAbsent() throws {
        var scenario = Scenario()
        _ = try scenario.run(Self.start(processAtStart: false), at: 0)
        let deadline = Fixture.t0.addingTimeInterval(JourneyTiming.firstCaptureWindow)
        #expect(scenario.state.nextDue == DueWork(kind: .abandonAbsent, attempt: 0, at: deadline))
        #expect(scenario.state.continuationDeadline == deadline)
        let early = try #require(scenario.refusal(.abandonAbsent(afterAttempt: 0), at: JourneyTiming.firstCaptureWindow - 1))
        #expect(early.code == .retryNotDue)
        let events = try scenario.run(.abandonAbsent(afterAttempt: 0), at: JourneyTiming.firstCaptureWindow)
        guard case .journeyAbandoned(let abandoned)? = events.first else {
            Issue.record("expected JourneyAbandoned, got \(events)")
            return
        }
        #expect(abandoned.reason.kind == .userAbsent)
        #expect(scenario.state.status == .abandoned && scenario.state.nextDue == nil)
    }

    @Test func processAtStartAndLinkJourneysRecordAttemptOneWithTheStart() throws {
        var now = Scenario()
        #expect(
            try now.run(Self.start(processAtStart: true), at: 0).map(\.eventType)
                == ["JourneyStarted", "ProcessCreationRequested"])
        var link = Scenario()
        #expect(
            try link.run(Self.start(processAtStart: false, subject: Fixture.linkSubject), at: 0).map(\.eventType)
                == ["JourneyStarted", "ProcessCreationRequested"])
    }
}
