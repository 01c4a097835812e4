import Foundation
import JourneyAPI
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
    /// Opened the capture, then neither the app's report nor a webhook came before the policy
    /// abandoned the journey; the person finished and Unico's webhook completed it, marked late.
    static let approvedAfterAbandonment = "approved after abandonment"
    /// The app reported camera permission denied (73705, full SDK, not on the SDK Lite page): the
    /// attempt failed, the journey stayed open; permission granted, a new token, approved.
    static let cameraDeniedThenGranted = "camera permission denied, then granted"
    /// Closed the app after attempt 1's token; 20 minutes later the backend renewed the app's
    /// client token (`POST …/client-token`) and the app captured: the same journey, approved.
    static let cameBackAfter20Minutes = "came back after 20 minutes"
    /// A link journey (`"delivery": "link"`): Unico sent the person the link; they open it an hour
    /// later (`GET …/link` records the opening) and capture through it: one process, approved.
    static let linkOpenedAfterAnHour = "link journey, opened after an hour"

    /// Short intervals, three attempts, a 60 s capture grace and the standard 30-minute window for
    /// absent users (a person may come back after 20 minutes), so a few moves of the clock show every case.
    static let retryPolicy = RetryPolicy(
        initialInterval: 5, backoffCoefficient: 2, maximumInterval: 20, maximumAttempts: 3,
        captureGrace: 60, abandonAfter: 1800)
    /// The demo's own webhook credential between the emulator and the service.
    static let webhookToken = UUID().uuidString

    let database: Database
    let approvals: Int
    /// The shape of the emulator's process answers (the client reads both).
    var responseShape: UnicoEmulator.ResponseShape = .wrapped
    let log: @Sendable (String) -> Void

    func run() async throws -> Summary {
        // One manual clock for Unico and the service: moving it expires tokens on both sides.
        let clock = ManualEmulatorClock(Date())
        var configuration = LocalStack.Configuration(clock: clock)
        // The Unico clients sign assertions on the same clock, as real clocks agree: a day's move
        // must not make every assertion look a day old to the emulator.
        configuration.clientClock = { clock.now() }
        configuration.faults = FaultScript(tokenEntryDisabled: [.prod])
        configuration.retryPolicy = Self.retryPolicy
        configuration.responseShape = responseShape
        // Unico's webhooks reach the service: the only news of a capture the app never reported.
        let port = try DemoPort.free()
        configuration.port = port
        configuration.webhookAuthentication = WebhookAuthenticator(.bearer(token: Self.webhookToken))
        configuration.emulatorWebhook = UnicoEmulator.WebhookConfiguration(
            url: URL(string: "http://127.0.0.1:\(port)/v1/webhooks/unico")!, authentication: .bearer(token: Self.webhookToken))
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
        let unreported = try await app.openCapture(Self.approvedAfterAbandonment)
        let later = try await app.start(Self.cameBackAfter20Minutes)
        let denied = try await app.start(Self.cameraDeniedThenGranted)
        let linked = try await app.startLink(Self.linkOpenedAfterAnHour)
        if let denied { try await app.drive(.appReports(73705), denied, environment: "UAT") }
        let workers = try DemoWorkers(database: database, app: stack.app)

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
        if let denied { try await app.comeBack(denied, as: .approve, label: Self.cameraDeniedThenGranted) }
        results.append((Self.cameraDeniedThenGranted, denied?.journeyID))

        log(
            "clock +\(Int(policy.captureGrace + policy.maximumInterval + 1)) s: the grace ran out; the late user's app starts attempt 2"
        )
        clock.advance(by: policy.captureGrace)
        try await workers.pass()
        clock.advance(by: policy.maximumInterval + 1)
        try await workers.pass()
        if let lateAfterRetry {
            _ = try await app.token(lateAfterRetry.started, label: Self.lateApprovalAfterRetry)
            try await app.finishApproved(lateAfterRetry, label: Self.lateApprovalAfterRetry)
        }
        results.append((Self.lateApprovalAfterRetry, lateAfterRetry?.started.journeyID))

        let elapsed = 301 + policy.maximumInterval + 1 + policy.captureGrace + policy.maximumInterval + 1
        log("clock to +20 min: the person who closed the app comes back; the backend renews the app's client token")
        clock.advance(by: 1200 - elapsed)
        try await workers.pass()
        if let later, let clientToken = try await app.renewClientToken(later.journeyID, label: Self.cameBackAfter20Minutes) {
            let renewed = DemoApp.Started(
                journeyID: later.journeyID, attempt: later.attempt, webAppToken: "", clientToken: clientToken)
            try await app.comeBack(renewed, as: .approve, label: Self.cameBackAfter20Minutes)
        }
        results.append((Self.cameBackAfter20Minutes, later?.journeyID))

        log("clock +\(Int(policy.abandonAfter + 1)) s: users who never came back are abandoned (userAbsent)")
        clock.advance(by: policy.abandonAfter + 1)
        try await workers.pass()
        results.append((Self.absentUser, absent?.journeyID))

        log("clock to +1 h: the person opens the link Unico sent; the backend renews the app's client token")
        clock.advance(by: 3600 - (1200 + policy.abandonAfter + 1))
        try await workers.pass()
        if let (journeyID, _) = linked,
            let clientToken = try await app.renewClientToken(journeyID, label: Self.linkOpenedAfterAnHour),
            let processID = try await app.captureThroughLink(
                journeyID, clientToken: clientToken,
                label: Self.linkOpenedAfterAnHour)
        {
            await waitForWebhook(processID: processID, stack: stack, label: Self.linkOpenedAfterAnHour)
            try await workers.pass()
        }
        results.append((Self.linkOpenedAfterAnHour, linked?.0))

        log("the person abandoned with an opened capture finishes it; only Unico's webhook says so")
        if let unreported, try await app.finishAtUnico(unreported, label: Self.approvedAfterAbandonment) {
            await waitForWebhook(processID: unreported.processID, stack: stack, label: Self.approvedAfterAbandonment)
            try await workers.pass()
        }
        results.append((Self.approvedAfterAbandonment, unreported?.started.journeyID))

        log(
            "clock +1 day: the user who signed up comes back; the backend renews the app's client token and the app "
                + "asks for a token: attempt 1's process is made now")
        clock.advance(by: 86_400)
        try await workers.pass()
        if let (journeyID, _) = signedUp,
            let clientToken = try await app.renewClientToken(journeyID, label: Self.capturedADayLater),
            let started = try await app.token(
                DemoApp.Started(
                    journeyID: journeyID, attempt: 0, webAppToken: "",
                    clientToken: clientToken), label: Self.capturedADayLater)
        {
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

    /// Waits (at most 10 s of real time) until the emulator delivered `processID`'s webhook.
    private func waitForWebhook(processID: String, stack: LocalStack, label: String) async {
        for _ in 0..<200 {
            let delivered = stack.emulator.webhookDeliveries().contains {
                $0.notification.processId == processID && $0.outcome == .delivered
            }
            if delivered { return }
            try? await Task.sleep(for: .milliseconds(50))
        }
        log("\(label): Unico's webhook was not delivered")
    }
}
