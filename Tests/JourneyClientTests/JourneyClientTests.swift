import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JourneyClient
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// End to end over loopback: the backend starts a journey with its API key, the app drives it with
/// `JourneyClient` and the SDK Lite simulator, the service talks to the Unico emulator and PostgreSQL.
@Suite(.serialized) struct JourneyClientEndToEndTests {
    @Test func approvalPathRefreshCaptureOpenedDeviceApprovesReportSuccess() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            #expect(start.attempt == 1)
            #expect(start.environment == .uat)
            #expect((start.webAppTokenExpiresAt ?? .distantPast) > Date().addingTimeInterval(200))
            let app = h.app(start)

            // Before prepareAndOpenSelfieCamera: refreshToken() then reportCaptureOpened().
            let grant = try await app.refreshToken()
            #expect(grant.journeyId == start.journeyId)
            #expect(grant.webAppToken == start.webAppToken)
            #expect(grant.attempt == 1)
            let opened = try await app.reportCaptureOpened()
            #expect(opened.journeyId == start.journeyId)
            #expect(opened.attempt == 1)

            // The SDK Lite on the phone: setEnvironment(.UAT), prepareAndOpenSelfieCamera, the user is approved.
            let outcome = await SimulatedDevice(emulatorURL: h.emulatorURL)
                .run(webAppToken: grant.webAppToken, environment: .UAT, user: .approve)
            let processID = try #require(outcome.processId, "\(outcome)")

            // onSuccess(_:) -> reportSuccess(processID:)
            let reported = try await app.reportSuccess(processID: processID)
            #expect(reported.status == "completed")
            let journey = try await h.backendReadsJourney(start.journeyId)
            #expect(journey["status"] as? String == "completed")
            let attempts = try #require(journey["attempts"] as? [[String: Any]])
            #expect(attempts.count == 1)
            #expect(attempts.first?["captureOpenedAt"] != nil)
            #expect(attempts.first?["callbackAt"] != nil)
        }
    }

    @Test func expiredTokenIsReportedWith73305AndTheNextRefreshOpensAFreshProcess() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let app = h.app(start)
            let grant = try await app.refreshToken()
            try await app.reportCaptureOpened()

            // The user waits more than five minutes: Unico refuses the token, the SDK calls onErrorSelfie(73305).
            h.unicoClock.advance(by: 301)
            let device = SimulatedDevice(emulatorURL: h.emulatorURL)
            let expired = await device.run(webAppToken: grant.webAppToken, environment: .UAT, user: .approve)
            #expect(expired.errorCode == 73305)

            // onErrorSelfie(_:) -> reportError(code:)
            let reported = try await app.reportError(code: try #require(expired.errorCode))
            #expect(reported.lastErrorCode?.code == 73305)
            #expect(reported.lastErrorCode?.retryable == true)

            // Try again: a fresh process (attempt 2) with a new webAppToken, which the device opens.
            let fresh = try await app.refreshToken()
            #expect(fresh.attempt == 2)
            #expect(fresh.webAppToken != grant.webAppToken)
            #expect(await app.lastGrant == fresh)
            let opened = try await app.reportCaptureOpened()
            #expect(opened.attempt == 2)
            let outcome = await device.run(webAppToken: fresh.webAppToken, environment: .UAT, user: .approve)
            let processID = try #require(outcome.processId, "\(outcome)")
            #expect(try await app.reportSuccess(processID: processID).status == "completed")
        }
    }

    @Test func networkErrorOnThePhoneIsReportedWith73302() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let app = h.app(start)
            let grant = try await app.refreshToken()
            try await app.reportCaptureOpened()
            let offline = SimulatedDevice(configuration: .init(emulatorURL: h.emulatorURL, network: .offline))
            let outcome = await offline.run(webAppToken: grant.webAppToken, environment: .UAT, user: .approve)
            #expect(outcome.errorCode == 73302)
            let reported = try await app.reportError(code: 73302)
            #expect(reported.lastErrorCode?.code == 73302)
            let journey = try await h.backendReadsJourney(start.journeyId)
            #expect((journey["lastErrorCode"] as? [String: Any])?["code"] as? Int == 73302)
        }
    }

    @Test func refreshReturnsTheSameTokenWhileAtLeastSixtySecondsAreLeft() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            // The app's own URLSession, injected; the client knows the first grant from the start.
            let urlSession = URLSession(configuration: .ephemeral)
            let app = JourneyClient(start: start, baseURL: h.baseURL, urlSession: urlSession)
            #expect(await app.lastGrant == start.grant)
            #expect(app.session.journeyID == start.journeyId)
            let first = try await app.refreshToken()
            let second = try await app.refreshToken()
            #expect(first == start.grant)
            #expect(second == first)
            #expect(second.expiresAt.timeIntervalSinceNow >= 60)
            let journey = try await h.backendReadsJourney(start.journeyId)
            #expect((journey["attempts"] as? [Any])?.count == 1)
        }
    }

    @Test func aClientTokenOfJourneyACannotTouchJourneyB() async throws {
        try await withClientHarness { h in
            let a = try await h.backendStartsJourney(reference: "a")
            let b = try await h.backendStartsJourney(reference: "b")
            let crossed = JourneyClient(
                session: JourneySession(
                    baseURL: h.baseURL, journeyID: b.journeyId,
                    clientToken: a.clientToken))
            let calls: [(String, @Sendable () async throws -> Void)] = [
                ("token", { _ = try await crossed.refreshToken() }),
                ("capture-opened", { try await crossed.reportCaptureOpened() }),
                ("success", { try await crossed.reportSuccess(processID: "p") }),
                ("error", { try await crossed.reportError(code: 73302) }),
            ]
            for (name, call) in calls {
                let error = try #require(await clientError(call), "\(name)")
                #expect(error.kind == .problem, "\(name)")
                #expect(error.status == 403, "\(name)")
                #expect(error.code == JourneyClientError.Code.wrongJourney, "\(name)")
                #expect(error.detail?.isEmpty == false, "\(name)")
                #expect(!error.isRetryable, "\(name)")
            }
            // Journey B was not touched, and A's own client still works.
            let journeyB = try await h.backendReadsJourney(b.journeyId)
            #expect((journeyB["attempts"] as? [[String: Any]])?.first?["captureOpenedAt"] == nil)
            #expect(try await h.app(a).reportCaptureOpened().attempt == 1)

            let forged = JourneyClient(
                session: JourneySession(
                    baseURL: h.baseURL, journeyID: a.journeyId,
                    clientToken: "not-a-token"))
            let unauthorized = try #require(await clientError { try await forged.refreshToken() })
            #expect(unauthorized.status == 401)
            #expect(unauthorized.needsNewClientToken)
        }
    }

    @Test func aConflictIsDecodedFromTheProblem() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let app = h.app(start)
            _ = try await app.refreshToken()
            try await app.reportCaptureOpened()
            try await app.reportError(code: 73302)
            // Attempt 1 failed: opening the capture again with its token is a transition not allowed.
            let error = try #require(await clientError { try await app.reportCaptureOpened(attempt: 1) })
            #expect(error.kind == .problem)
            #expect(error.status == 409)
            #expect(error.code == JourneyClientError.Code.invalidTransition)
            #expect(error.extra["attempt"] == "1")
            #expect(error.detail?.contains("retryScheduled") == true)
            #expect(error.title != nil)
            #expect(error.detail?.isEmpty == false)
            #expect(error.retryAfter == nil)
            #expect(!error.isRetryable)
        }
    }

    @Test func anUnreachableServiceIsATransportError() async throws {
        let client = JourneyClient(
            session: JourneySession(
                baseURL: URL(string: "http://127.0.0.1:1")!,
                journeyID: UUID().uuidString.lowercased(), clientToken: "t"),
            timeout: 5)
        let error = try #require(await clientError { try await client.refreshToken() })
        #expect(error.kind == .transport)
        #expect(error.status == 0)
        #expect(error.code == "transport_failed")
        #expect(error.isRetryable)
    }
}

/// Decoding of answers that the service does not produce on demand (Retry-After, non-problem bodies).
@Suite struct JourneyClientDecodingTests {
    @Test func problemWithRetryAfter() throws {
        let body = Data(
            #"{"code":"unico_rate_limited","detail":"retry after 3 s","status":429,"title":"Too Many Requests","type":"about:blank"}"#
                .utf8)
        let error = JourneyClientError.fromResponse(status: 429, body: body, retryAfterHeader: "3")
        #expect(error.kind == .problem)
        #expect(error.code == "unico_rate_limited")
        #expect(error.status == 429)
        #expect(error.retryAfter == 3)
        #expect(error.title == "Too Many Requests")
        #expect(error.isRetryable)
    }

    @Test func retryAfterAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)  // Thu, 01 Jan 2026 00:00:00 GMT
        #expect(JourneyClientError.parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now: now) == 10)
        #expect(JourneyClientError.parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now: now) == 0)
        #expect(JourneyClientError.parseRetryAfter("soon", now: now) == nil)
    }

    @Test func extraMembersAndNonProblemBodies() {
        let validation = JourneyClientError.fromResponse(
            status: 422, body: Data(#"{"code":"validation_failed","field":"outcome","status":422}"#.utf8), retryAfterHeader: nil)
        #expect(validation.extra["field"] == "outcome")
        let gateway = JourneyClientError.fromResponse(
            status: 502, body: Data("<html>bad gateway</html>".utf8),
            retryAfterHeader: nil)
        #expect(gateway.code == "http_502")
        #expect(gateway.isRetryable)
    }

    @Test func journeyStartDecodesTheServiceBody() throws {
        let body = Data(
            """
            {"attempt":1,"clientToken":"ct","clientTokenExpiresAt":"2026-11-29T18:00:00Z","environment":"PROD",\
            "journeyId":"j","webAppToken":"w","webAppTokenExpiresAt":"2026-11-29T17:35:00.123Z"}
            """.utf8)
        let start = try JourneyStart.decode(from: body)
        #expect(start.environment == .prod)
        #expect(start.clientToken == "ct")
        #expect((start.webAppTokenExpiresAt?.timeIntervalSince1970 ?? 0).truncatingRemainder(dividingBy: 1) > 0.1)
        let session = JourneySession(start: start, baseURL: URL(string: "https://journeys.example.com")!)
        #expect(session.journeyID == "j")
        #expect(session.isExpired(at: Date(timeIntervalSince1970: 1_900_000_000)))
    }
}

/// The delegate wiring of the docs, driven through the SDK Lite simulator's `AcessoBioManager`.
@Suite(.serialized) struct CaptureScreenTests {
    @Test func theDelegateReportsSuccessThroughTheClient() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let screen = await CaptureScreen(journey: h.app(start))
            let (grant, event) = try await screen.capture(on: SimulatedDevice(emulatorURL: h.emulatorURL, user: .approve))
            #expect(grant.webAppToken == start.webAppToken)
            guard case .reportedSuccess(_, let status) = event else {
                Issue.record("expected a reported success, got \(event)")
                return
            }
            #expect(status.status == "completed")
        }
    }

    @Test func closingTheCameraIsReportedAndTryingAgainGetsAFreshProcess() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let screen = await CaptureScreen(journey: h.app(start))
            let device = SimulatedDevice(emulatorURL: h.emulatorURL)
            let (first, closed) = try await screen.capture(on: device.handed(to: .closeCamera))
            guard case .closedByUser(let afterClose) = closed else {
                Issue.record("expected a reported close, got \(closed)")
                return
            }
            #expect(afterClose.status == "retryScheduled")
            // The next capture gets its own process and token: the closed one is never reopened.
            let (second, event) = try await screen.capture(on: device.handed(to: .approve))
            #expect(second.attempt == first.attempt + 1)
            #expect(second.webAppToken != first.webAppToken)
            guard case .reportedSuccess(_, let status) = event else {
                Issue.record("expected a reported success, got \(event)")
                return
            }
            #expect(status.status == "completed")
        }
    }

    @Test func aTimedOutSessionIsReportedAndTheLinkIsTheFallback() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let journey = h.app(start)
            let link = try await journey.link()
            #expect(link.attempt == 1)
            #expect(link.link.hasPrefix("http"))
            let screen = await CaptureScreen(journey: journey)
            let (_, ended) = try await screen.capture(on: SimulatedDevice(emulatorURL: h.emulatorURL, user: .letSessionTimeOut))
            guard case .sessionTimedOut(let status) = ended else {
                Issue.record("expected a reported timeout, got \(ended)")
                return
            }
            #expect(status.status == "retryScheduled")
            do {
                _ = try await journey.link()
                Issue.record("no live attempt: the link is refused")
            } catch {
                #expect((error as? JourneyClientError)?.status == 409)
            }
        }
    }

    @Test func anExpiredTokenIsReportedByOnErrorSelfie() async throws {
        try await withClientHarness { h in
            let start = try await h.backendStartsJourney()
            let screen = await CaptureScreen(journey: h.app(start))
            h.unicoClock.advance(by: 301)
            let (_, event) = try await screen.capture(on: SimulatedDevice(emulatorURL: h.emulatorURL))
            guard case .reportedError(let code, let status) = event else {
                Issue.record("expected a reported error, got \(event)")
                return
            }
            #expect(code == 73305)
            #expect(status.lastErrorCode?.code == 73305)
            let (fresh, retried) = try await screen.capture(on: SimulatedDevice(emulatorURL: h.emulatorURL))
            #expect(fresh.attempt == 2)
            guard case .reportedSuccess = retried else {
                Issue.record("expected a reported success, got \(retried)")
                return
            }
        }
    }
}
