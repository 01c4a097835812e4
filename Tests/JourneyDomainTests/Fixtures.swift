import Foundation
import JourneyDomain

/// Shared values for the domain tests.
enum Fixture {
    /// 2026-11-12T08:00:00Z.
    static let t0 = Date(timeIntervalSince1970: 1_794_470_400)
    static let journeyID = JourneyID("jrn_01")
    static let process1 = ProcessID("proc-1")
    static let process2 = ProcessID("proc-2")
    static let process3 = ProcessID("proc-3")

    static func sealed(_ label: String) -> SealedField {
        SealedField(ciphertext: Data("sealed:\(label)".utf8).base64EncodedString(), keyID: "subject-key-1")
    }

    static let subject = SealedSubject(
        reference: SubjectReference("hmac-sha256:4f2a"),
        documentType: .brCPF,
        documentNumber: sealed("document"),
        name: sealed("name"),
        friendlyName: sealed("friendly"),
        phone: sealed("phone"),
        email: sealed("email"),
        notificationChannels: []
    )

    /// The same person reached by Unico's link (SMS): a link journey.
    static let linkSubject: SealedSubject = {
        var subject = Fixture.subject
        subject.notificationChannels = [.sms]
        return subject
    }()

    static func start(policy: RetryPolicy = .standard, subject: SealedSubject = Fixture.subject) -> JourneyCommand {
        .start(
            StartJourney(
                journeyID: journeyID,
                environment: .uat,
                flow: Flow("humantoken"),
                purpose: .creditProcess,
                subject: subject,
                clientReference: "order-42",
                retryPolicy: policy
            )
        )
    }

    static func created(_ attempt: Int, _ process: ProcessID, expiresAt: Date? = nil) -> JourneyCommand {
        .recordProcessCreated(
            ProcessCreation(
                attempt: attempt,
                processID: process,
                webAppToken: sealed("webAppToken-\(attempt)"),
                processToken: sealed("token-\(attempt)"),
                link: sealed("link-\(attempt)"),
                tokenExpiresAt: expiresAt
            )
        )
    }

    static func result(_ state: ProcessState, _ result: ProcessResult, token: SealedField? = nil) -> ProcessSnapshot {
        ProcessSnapshot(state: state, result: result, humanToken: token, finishedAt: t0.addingTimeInterval(30))
    }

    static func process(_ attempt: Int) -> ProcessID {
        ProcessID("proc-\(attempt)")
    }
}

/// A journey under test: its events so far, and commands run at offsets from `Fixture.t0`.
struct Scenario {
    var events: [JourneyEvent] = []

    var state: JourneyState { Journey.fold(events) }

    /// Decides `command` at `t0 + seconds` and appends the resulting events.
    @discardableResult
    mutating func run(_ command: JourneyCommand, at seconds: TimeInterval, random: Double = 0) throws(DomainError)
        -> [JourneyEvent]
    {
        let new = try Journey.decide(command, state: state, now: Fixture.t0.addingTimeInterval(seconds), randomUnit: random)
        events += new
        return new
    }

    /// The error `command` is refused with at `t0 + seconds`, or nil if it was accepted (nothing is appended).
    func refusal(_ command: JourneyCommand, at seconds: TimeInterval) -> DomainError? {
        do {
            _ = try Journey.decide(command, state: state, now: Fixture.t0.addingTimeInterval(seconds), randomUnit: 0)
            return nil
        } catch {
            return error
        }
    }

    /// Started, attempt 1 being created (t0).
    static func creatingProcess(policy: RetryPolicy = .standard, subject: SealedSubject = Fixture.subject) throws -> Scenario {
        var scenario = Scenario()
        try scenario.run(Fixture.start(policy: policy, subject: subject), at: 0)
        return scenario
    }

    /// Attempt 1's process created at t0+1 (token expires at t0+301).
    static func processCreated(policy: RetryPolicy = .standard) throws -> Scenario {
        var scenario = try creatingProcess(policy: policy)
        try scenario.run(Fixture.created(1, Fixture.process1), at: 1)
        return scenario
    }

    /// Token of attempt 1 handed out at t0+2.
    static func tokenIssued(policy: RetryPolicy = .standard) throws -> Scenario {
        var scenario = try processCreated(policy: policy)
        try scenario.run(.issueToken, at: 2)
        return scenario
    }

    /// Capture opened at t0+3.
    static func captureOpened(policy: RetryPolicy = .standard) throws -> Scenario {
        var scenario = try tokenIssued(policy: policy)
        try scenario.run(.recordCaptureOpened(attempt: 1), at: 3)
        return scenario
    }

    /// Success callback at t0+4.
    static func awaitingResult() throws -> Scenario {
        var scenario = try captureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .success(processID: Fixture.process1)), at: 4)
        return scenario
    }

    /// Error 73302 at t0+4; retry due at t0+14 with the default policy and random 0.
    static func retryScheduled() throws -> Scenario {
        var scenario = try captureOpened()
        try scenario.run(.recordCallback(attempt: 1, outcome: .error(code: .authenticationFailed)), at: 4)
        return scenario
    }

    /// Approved at t0+5.
    static func completed() throws -> Scenario {
        var scenario = try awaitingResult()
        try scenario.run(.recordResult(attempt: 1, snapshot: Fixture.result(.finished, .ok, token: Fixture.sealed("ht"))), at: 5)
        return scenario
    }

    /// Abandoned on request at t0+3.
    static func abandoned() throws -> Scenario {
        var scenario = try tokenIssued()
        try scenario.run(.abandon(reason: .requested("company cancelled")), at: 3)
        return scenario
    }
}
