import Foundation
import JourneyApp
import JourneyDomain
import UnicoEmulator

/// `journeys demo`: the emulator and the service in this process, simulated phones driving
/// journeys through every ending, then the clock moves and the workers run: the named scenarios
/// of one process per capture (absent user, late approvals, a user who came back).
struct DemoRunner: Sendable {
    struct Summary: Sendable {
        var rows: [DemoRow] = []
    }

    /// Never comes back after the first token expired: one process, abandoned as `userAbsent`.
    static let absentUser = "absent user"
    /// Came back after the first token expired: attempt 2's token request made a fresh process.
    static let cameBackAfterExpiry = "expired, came back"
    /// Opened the capture in time and finished it after the 5 minutes, within the grace.
    static let lateApproval = "late approval"
    /// Finished after the grace, once the app had already started attempt 2: still approved.
    static let lateApprovalAfterRetry = "late approval, after retry"
    /// Closed the camera, then asked for a token again: attempt 2 on a new process, approved.
    static let closedCameraCameBack = "closed camera, came back"
    /// Started at sign-up (no Unico call), captured a day later: one process, made at the capture.
    static let capturedADayLater = "signed up, captured a day later"

    /// Short intervals, three attempts, a 60 s capture grace and a 5-minute window for absent
    /// users, so the demo shows every case in a few moves of the clock.
    static let retryPolicy = RetryPolicy(initialInterval: 5, backoffCoefficient: 2, maximumInterval: 20, maximumAttempts: 3,
                                         captureGrace: 60, abandonAfter: 300)

    let database: Database
    let approvals: Int
    /// The shape of the emulator's process answers (the client reads both).
    var responseShape: UnicoEmulator.ResponseShape = .wrapped
    let log: @Sendable (String) -> Void

    func run() async throws -> Summary {
        // One manual clock for Unico and the service: moving it expires tokens on both sides.
        let clock = ManualEmulatorClock(start: Date())
        var configuration = LocalStack.Configuration(clock: clock)
        // The Unico clients sign assertions on the same clock, as real clocks agree: a day's move
        // must not make every assertion look a day old to the emulator.
        configuration.clientClock = { clock.now() }
        configuration.faults = FaultScript(tokenEntryDisabled: [.prod])
        configuration.retryPolicy = Self.retryPolicy
        configuration.responseShape = responseShape
        return try await LocalStack.with(database: database, configuration: configuration) {
            try await run(on: $0, clock: clock)
        }
    }

    private func run(on stack: LocalStack, clock: ManualEmulatorClock) async throws -> Summary {
        log("Unico emulator on \(stack.unicoURL.absoluteString) (token entry disabled for PROD, to show 73303)")
        log("journey service on \(stack.api.baseURL.absoluteString)")
        let app = DemoApp(api: stack.api, key: stack.apiKey, unicoURL: stack.unicoURL, log: log)
        let policy = Self.retryPolicy
        let scenarios = DemoScenario.all(approvals: approvals)
        let signedUp = try await app.startOnly(Self.capturedADayLater)
        var results = try await app.runAll(scenarios.filter { !$0.afterExpiry })

        // Started now; used after the 5-minute token life has passed.
        var pending: [(DemoScenario, DemoApp.Started)] = []
        for scenario in scenarios.filter(\.afterExpiry) {
            if let started = try await app.start(scenario.label) { pending.append((scenario, started)) }
        }
        let cameBack = try await app.start(Self.cameBackAfterExpiry)
        let absent = try await app.start(Self.absentUser)
        let late = try await app.openCapture(Self.lateApproval)
        let lateAfterRetry = try await app.openCapture(Self.lateApprovalAfterRetry)
        let workers = try DemoWorkers(database: database, dependencies: stack.dependencies)

        log("clock +301 s: every token above expired; the opened captures hold their attempts for \(Int(policy.captureGrace)) s")
        clock.advance(by: 301)
        for (scenario, started) in pending {
            try await app.drive(scenario.device, started, environment: scenario.environment)
            results.append((scenario.label, started.journeyID))
        }
        try await workers.pass()
        if let late { try await app.finishApproved(late, label: Self.lateApproval) }
        results.append((Self.lateApproval, late?.started.journeyID))

        log("clock +\(Int(policy.maximumInterval + 1)) s: retries allowed; no process until the app asks for a token")
        clock.advance(by: policy.maximumInterval + 1)
        try await workers.pass()
        if let cameBack { try await app.comeBack(cameBack, as: .approve, label: Self.cameBackAfterExpiry) }
        results.append((Self.cameBackAfterExpiry, cameBack?.journeyID))

        log("clock +\(Int(policy.captureGrace + policy.maximumInterval + 1)) s: the grace ran out; the late user's app starts attempt 2")
        clock.advance(by: policy.captureGrace)
        try await workers.pass()
        clock.advance(by: policy.maximumInterval + 1)
        try await workers.pass()
        if let lateAfterRetry {
            _ = try await app.token(lateAfterRetry.started, label: Self.lateApprovalAfterRetry)
            try await app.finishApproved(lateAfterRetry, label: Self.lateApprovalAfterRetry)
        }
        results.append((Self.lateApprovalAfterRetry, lateAfterRetry?.started.journeyID))

        log("clock +\(Int(policy.abandonAfter + 1)) s: users who never came back are abandoned (userAbsent)")
        clock.advance(by: policy.abandonAfter + 1)
        try await workers.pass()
        results.append((Self.absentUser, absent?.journeyID))

        log("clock +1 day: the user who signed up comes back; the backend renews the app's client token and the app "
            + "asks for a token: attempt 1's process is made now")
        clock.advance(by: 86_400)
        try await workers.pass()
        if let (journeyID, _) = signedUp, let clientToken = try await app.renewClientToken(journeyID, label: Self.capturedADayLater),
           let started = try await app.token(DemoApp.Started(journeyID: journeyID, attempt: 0, webAppToken: "",
                                                             clientToken: clientToken), label: Self.capturedADayLater) {
            try await app.drive(.capture(.approve), started, environment: "UAT")
        }
        results.append((Self.capturedADayLater, signedUp?.0))
        log("workers: \(workers.statistics)")

        var summary = Summary()
        for (label, journeyID) in results {
            guard let journeyID else {
                summary.rows.append(.refused(label))
                continue
            }
            summary.rows.append(try await DemoRow.read(label, journeyID: journeyID, api: stack.api, key: stack.apiKey))
        }
        return summary
    }
}
