import EventStore
import Foundation
import JourneyDomain
import JourneyEngine
import JourneyTesting
import Postgres
import Projections
import Reports
import Synchronization
import Timestamps

func date(_ text: String) -> Date { ISO8601Date.parse(text)!.date }

/// 2026-03-02T09:00:00Z: the start of the hand-built history's day.
let t0 = date("2026-03-02T09:00:00Z")

/// One thing that happens to a journey, at the clock's current time.
enum Step {
    case wait(TimeInterval)
    case created(expiresIn: TimeInterval? = nil)
    case token, capture, success, expire, retry
    /// The app reports `onUserClosedCameraManually` / `onSystemClosedCameraTimeoutSession`.
    case closed, timedOut
    case error(SDKErrorCode)
    case result(ProcessResult)
}

/// Appends journeys through the repository with a test clock, then projects them.
struct History {
    let db: TestDatabase
    let clock = TestClock(t0)
    var repository: JourneyCommandRunner { JourneyCommandRunner(database: db.app, clock: { [clock] in clock.now() }) }

    /// Appends a journey started at `start` and taken through `steps`.
    @discardableResult
    func journey(
        _ name: String, at start: Date, environment: Environment = .uat, purpose: Purpose = .creditProcess,
        subject: String? = nil, _ steps: [Step]
    ) async throws -> String {
        let id = JourneyID("\(name)-\(UUID().uuidString.prefix(8).lowercased())")
        clock.set(start)
        let sealed = { (label: String) in SealedField(ciphertext: Data("sealed:\(label)".utf8).base64EncodedString(), keyID: "k1")
        }
        try await run(
            .start(
                StartJourney(
                    journeyID: id, environment: environment, flow: Flow("humantoken"), purpose: purpose,
                    subject: SealedSubject(
                        reference: SubjectReference(subject ?? "ref-\(name)"), documentType: .brCPF,
                        documentNumber: sealed("doc"), notificationChannels: []),
                    clientReference: "order-\(name)")), id)
        var attempt = 1
        let process = { ProcessID("proc-\(id.rawValue)-\(attempt)") }
        for step in steps {
            switch step {
            case .wait(let seconds): clock.advance(by: seconds)
            case .created(let expiresIn):
                try await run(
                    .recordProcessCreated(
                        ProcessCreation(
                            attempt: attempt, processID: process(), webAppToken: sealed("wat"), processToken: sealed("pt"),
                            link: sealed("link"), tokenExpiresAt: expiresIn.map { clock.now().addingTimeInterval($0) })), id)
            case .token: try await run(.issueToken, id)
            case .capture: try await run(.recordCaptureOpened(attempt: attempt), id)
            case .success: try await run(.recordCallback(attempt: attempt, outcome: .success(processID: process())), id)
            case .error(let code): try await run(.recordCallback(attempt: attempt, outcome: .error(code: code)), id)
            case .result(let result):
                try await run(
                    .recordResult(
                        attempt: attempt,
                        snapshot: ProcessSnapshot(
                            state: .finished, result: result, humanToken: result == .ok ? sealed("ht") : nil,
                            finishedAt: clock.now())), id)
            case .expire: try await run(.expireToken(attempt: attempt), id)
            case .closed: try await run(.recordCaptureClosedByUser(attempt: attempt), id)
            case .timedOut: try await run(.recordCaptureSessionTimedOut(attempt: attempt), id)
            case .retry:
                // The workers allow the retry (SDK journey), then the returning app's token request
                // records attempt n+1's intent; `.created()` follows.
                try await run(.retry(afterAttempt: attempt), id)
                try await run(.issueToken, id)
                attempt += 1
            }
        }
        return id.rawValue
    }

    private func run(_ command: JourneyCommand, _ id: JourneyID) async throws {
        _ = try await repository.execute(command, journey: id, metadata: EventMetadata(actor: "test"))
    }

    /// Runs the projection until every journey stream is in `journey_state` (bounded wait: another
    /// test's transaction may hold the MVCC horizon back for a moment).
    func project() async throws {
        let runner = ProjectionRunner(client: db.owner)
        try await waitUntil("the projection caught up with every journey") {
            _ = try await runner.catchUp()
            let row = try await db.owner.query(
                """
                SELECT (SELECT count(DISTINCT stream_name) FROM events WHERE stream_name LIKE 'journey-%')::int,
                       (SELECT count(*) FROM journey_state)::int,
                       (SELECT count(*) FROM events)::int, (SELECT position FROM projection_checkpoints WHERE name = 'journey_state')::int
                """
            ).first!
            return try row.decode(0, as: Int.self) == row.decode(1, as: Int.self)
                && row.decode(2, as: Int.self) == row.decode(3, as: Int.self)
        }
    }
}

/// The hand-built history of the report tests; every expected number in the tests follows from it.
///
/// Ten journeys start on 2026-03-02 (t0 = 09:00Z, offsets in seconds), one on 2026-02-20:
/// - a  UAT  0     token 5, capture 10, success 60, approved 90            (start→result 90, callback→result 30)
/// - b  PROD 600   success 700, approved 1000                               (400, 300)
/// - c  UAT  1200  error 73302 at 1250, retry 1850, success 1910, approved 1970 (770, 60)
/// - d  UAT  1800  token expires by timer at 2200 → retryScheduled (stuck: no event since 2200)
/// - e  UAT  2400  error 73006 → abandoned
/// - f  UAT  6000  token issued only
/// - g  UAT  3600  biometryonboarding: success 3620, rejected 3660         (60, 40)
/// - h  UAT  5400  success 5430, no result yet                              (SLA: still waiting)
/// - i  UAT  4200  success 4260, approved 5160                              (960, 900; SLA: late)
/// - j  PROD 4800  error 73305 → retryScheduled
/// - z  UAT  2026-02-20 approved (outside the window); a, g and z share subject "ref-alice".
struct Fixture {
    let history: History
    var ids: [String: String] = [:]
    /// t0 + 2 h: the "now" of SLA measurements.
    static let now = t0.addingTimeInterval(7200)

    static func build(_ db: TestDatabase) async throws -> Fixture {
        let h = History(db: db)
        var ids: [String: String] = [:]
        let at = { (seconds: TimeInterval) in t0.addingTimeInterval(seconds) }
        ids["a"] = try await h.journey(
            "a", at: at(0), subject: "ref-alice",
            [.created(), .wait(5), .token, .wait(5), .capture, .wait(50), .success, .wait(30), .result(.ok)])
        ids["b"] = try await h.journey(
            "b", at: at(600), environment: .prod,
            [.created(), .token, .capture, .wait(100), .success, .wait(300), .result(.ok)])
        ids["c"] = try await h.journey(
            "c", at: at(1200),
            [
                .created(), .token, .capture, .wait(50), .error(.authenticationFailed),
                .wait(600), .retry, .created(), .wait(10), .token, .wait(10), .capture,
                .wait(40), .success, .wait(60), .result(.ok),
            ])
        ids["d"] = try await h.journey("d", at: at(1800), [.created(expiresIn: 300), .token, .wait(400), .expire])
        ids["e"] = try await h.journey("e", at: at(2400), [.created(), .token, .capture, .error(.simulator)])
        ids["f"] = try await h.journey("f", at: at(6000), [.created(), .token])
        ids["g"] = try await h.journey(
            "g", at: at(3600), purpose: .biometryOnboarding, subject: "ref-alice",
            [.created(), .token, .capture, .wait(20), .success, .wait(40), .result(.invalidIdentity)])
        ids["h"] = try await h.journey("h", at: at(5400), [.created(), .token, .capture, .wait(30), .success])
        ids["i"] = try await h.journey(
            "i", at: at(4200), [.created(), .token, .capture, .wait(60), .success, .wait(900), .result(.ok)])
        ids["j"] = try await h.journey(
            "j", at: at(4800), environment: .prod, [.created(expiresIn: 300), .token, .capture, .error(.tokenExpired)])
        ids["z"] = try await h.journey(
            "z", at: date("2026-02-20T12:00:00Z"), subject: "ref-alice",
            [.created(), .token, .capture, .success, .wait(20), .result(.ok)])
        try await h.project()
        return Fixture(history: h, ids: ids)
    }

    /// The window 2026-03-01 to 2026-03-07 (inclusive), measured at ``now``.
    static func parameters(environment: Environment? = nil, subject: String? = nil, stuckMinutes: Int = 60) -> ReportParameters {
        ReportParameters(
            from: date("2026-03-01"), to: date("2026-03-08"), environment: environment,
            subject: subject.map { SubjectReference($0) }, stuckMinutes: stuckMinutes, now: now)
    }
}
