import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JourneyDomain
import SDKLiteSimulator
import Testing
import UnicoEmulator
import Workers

/// Issue 12 end to end (service, workers, emulator, PostgreSQL): one process per capture, two
/// racing token requests make one process, and no approval is lost to a retry.
@Suite(.serialized) struct CaptureLifecycleTests {
    @Test func twoRacingTokenRequestsForTheNextCaptureCreateOneProcessAndGetTheSameToken() async throws {
        // Create Process takes 300 ms, so the second request arrives while the first one's is in flight.
        let faults = FaultScript(routes: [
            FaultScript.Route.createProcess.rawValue: .init(latencyMs: .init(min: 300, max: 300))
        ])
        try await withWorkers(faults: faults) { h in
            let (id, _, client) = try await started(h)
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            // The capture was opened: a token request is a new capture (attempt 2); a double tap is one.
            async let first = h.send("POST", "/v1/journeys/\(id.rawValue)/token", bearer: client)
            async let second = h.send("POST", "/v1/journeys/\(id.rawValue)/token", bearer: client)
            let (a, b) = try await (first, second)
            #expect(a.status == 200)
            #expect(b.status == 200)
            #expect(a["attempt"] as? Int == 2)
            #expect(b["attempt"] as? Int == 2)
            #expect(a["webAppToken"] as? String == b["webAppToken"] as? String)
            #expect(h.emulator.processes().count == 2)
            #expect(try await h.eventTypes(id).filter { $0 == "ProcessCreationRequested" }.count == 2)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
        }
    }

    @Test func aCaptureOpenedBeforeExpiryAndFinishedWithinTheGraceIsApprovedWithoutARetry() async throws {
        let policy = RetryPolicy(initialInterval: 10, jitterFraction: 0)
        try await withWorkers(policy: policy) { h in
            let (id, webAppToken, client) = try await started(h)
            let worker = try h.worker()
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            let capture = try await openCapture(h, webAppToken: webAppToken)
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)

            // Past the token's five minutes: the opened capture holds the attempt (default grace 600 s).
            h.clock.set(expiresAt.addingTimeInterval(120))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .captureOpened)

            try await finishCapture(h, capture.captureID, outcome: "approved")
            let callback = try await h.send(
                "POST", "/v1/journeys/\(id.rawValue)/callback",
                json: ["outcome": "success", "processId": capture.processID], bearer: client)
            #expect(callback.status == 200)
            let state = try await h.state(id)
            #expect(state.status == .completed)
            #expect(state.outcome == .approved)
            #expect(h.emulator.processes().count == 1)
        }
    }

    @Test func anOpenedCaptureWhoseReportsWereLostIsAskedAboutBeforeItIsExpired() async throws {
        let policy = RetryPolicy(initialInterval: 10, jitterFraction: 0, captureGrace: 60)
        try await withWorkers(policy: policy) { h in
            let (id, webAppToken, client) = try await started(h)
            let worker = try h.worker()
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            let capture = try await openCapture(h, webAppToken: webAppToken)
            // The person finishes, approved; the app's success report and Unico's webhook both get lost.
            try await finishCapture(h, capture.captureID, outcome: "approved")
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)
            h.clock.set(expiresAt.addingTimeInterval(61))
            try await h.poll(worker)
            let state = try await h.state(id)
            #expect(state.status == .completed && state.outcome == .approved, "\(state.status)")
            #expect(state.humanToken != nil)
            let types = try await h.eventTypes(id)
            #expect(!types.contains("TokenExpired"))
            #expect(types.suffix(2) == ["ResultFetched", "JourneyCompleted"])
            #expect(h.emulator.processes().count == 1)
        }
    }

    @Test func anApprovalThatArrivesAfterTheRetryStartedAttemptTwoStillCompletesTheJourney() async throws {
        let policy = RetryPolicy(initialInterval: 10, jitterFraction: 0, captureGrace: 60)
        try await withWorkers(policy: policy) { h in
            let (id, webAppToken, client) = try await started(h)
            let worker = try h.worker()
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            let capture = try await openCapture(h, webAppToken: webAppToken)
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)

            // The grace runs out: expired, the retry allowed, and the app starts attempt 2.
            h.clock.set(expiresAt.addingTimeInterval(61))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryScheduled)
            h.clock.advance(by: 11)
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryAvailable)
            let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token", bearer: client)
            #expect(token["attempt"] as? Int == 2)

            // Attempt 1's capture ends now, approved: its result is fetched and completes the journey.
            try await finishCapture(h, capture.captureID, outcome: "approved")
            let late = try await h.send(
                "POST", "/v1/journeys/\(id.rawValue)/callback",
                json: ["outcome": "success", "processId": capture.processID, "attempt": 1],
                bearer: client)
            #expect(late.status == 200)
            let state = try await h.state(id)
            #expect(state.status == .completed)
            #expect(state.outcome == .approved)
            #expect(state.humanToken != nil)
            #expect(try await h.eventTypes(id).suffix(2) == ["ResultFetched", "JourneyCompleted"])
            let stream = "journey-" + id.rawValue
            let completed = try await h.database.owner.query(
                "SELECT (data->>'attempt')::int FROM events WHERE stream_name = \(stream) AND event_type = 'JourneyCompleted'")
            #expect(try completed.first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func aUnicoSideErrorIsRetriedUnderThePolicyAndTheNextCaptureIsApproved() async throws {
        try await withWorkers { h in
            let id = try await h.startCreated()
            #expect(try await h.capture(id, as: .hitJourneyError))
            let failed = try await h.state(id)
            #expect(failed.status == .retryScheduled)
            #expect(failed.lastFailure?.kind == .processFailed)
            #expect(failed.attempt(1)?.processResult == .error)
            #expect(try await h.capture(id))
            let state = try await h.state(id)
            #expect(state.status == .completed)
            #expect(state.outcome == .approved)
            #expect(state.currentAttemptNumber == 2)
            #expect(h.emulator.processes().count == 2)
        }
    }

    @Test func aFinishLostBehindA73302IsLearntByTheProbeEvenAfterTheAppStartedAttemptTwo() async throws {
        let policy = RetryPolicy(initialInterval: 10, jitterFraction: 0)
        try await withWorkers(policy: policy) { h in
            let (id, webAppToken, client) = try await started(h)
            let worker = try h.worker()
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            let capture = try await openCapture(h, webAppToken: webAppToken)
            // Unico finishes the process, approved, but the finish answer is lost: the app reports
            // 73302, and the person taps "try again" before any worker ran (attempt 2 exists).
            try await finishCapture(h, capture.captureID, outcome: "approved")
            #expect(
                try await h.send(
                    "POST", "/v1/journeys/\(id.rawValue)/callback",
                    json: ["outcome": "error", "code": 73302], bearer: client
                ).status == 200)
            let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token", bearer: client)
            #expect(token["attempt"] as? Int == 2)

            // The workers ask Unico about attempt 1 once: the approval is learnt for attempt 1.
            try await h.poll(worker)
            let state = try await h.state(id)
            #expect(state.status == .completed && state.outcome == .approved, "\(state.status)")
            #expect(state.humanToken != nil)
            #expect(try await h.eventTypes(id).suffix(2) == ["ResultFetched", "JourneyCompleted"])
            let stream = "journey-" + id.rawValue
            let completed = try await h.database.owner.query(
                "SELECT (data->>'attempt')::int FROM events WHERE stream_name = \(stream) AND event_type = 'JourneyCompleted'")
            #expect(try completed.first?.decode(0, as: Int.self) == 1)
        }
    }

    @Test func aProcessUnfinishedBehindA73302IsAskedAboutOnceAndTheRetryGoesAhead() async throws {
        let policy = RetryPolicy(initialInterval: 10, jitterFraction: 0)
        try await withWorkers(policy: policy) { h in
            let (id, webAppToken, client) = try await started(h)
            let worker = try h.worker()
            #expect(
                try await h.send("POST", "/v1/journeys/\(id.rawValue)/capture-opened", json: [:], bearer: client).status == 200)
            _ = try await openCapture(h, webAppToken: webAppToken)
            #expect(
                try await h.send(
                    "POST", "/v1/journeys/\(id.rawValue)/callback",
                    json: ["outcome": "error", "code": 73302], bearer: client
                ).status == 200)
            // Unico never got the capture: the probe records "not finished", nothing else changes.
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryScheduled)
            #expect(try await h.eventTypes(id).last == "ResultPending")
            // The retry goes ahead as before: allowed after the policy's 10 s, then the app's next capture.
            h.clock.advance(by: 11)
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryAvailable)
            #expect(try await h.eventTypes(id).filter { $0 == "ResultPending" }.count == 1, "asked once")
            #expect(try await h.capture(id))
            let state = try await h.state(id)
            #expect(state.status == .completed && state.outcome == .approved)
            #expect(state.currentAttemptNumber == 2)
        }
    }

    // MARK: - The app and the device

    /// Starts a journey; its id, attempt 1's webAppToken and the app's client token.
    private func started(_ h: WorkersHarness) async throws -> (JourneyID, String, String) {
        let answer = try await h.start()
        #expect(answer.status == 201)
        return (
            JourneyID(try #require(answer["journeyId"] as? String)), try #require(answer["webAppToken"] as? String),
            try #require(answer["clientToken"] as? String)
        )
    }

    /// The SDK opening the capture at Unico (`POST /sdk/captures`), without finishing it.
    private func openCapture(_ h: WorkersHarness, webAppToken: String) async throws -> (captureID: String, processID: String) {
        let body = try await post(
            h.emulatorURL.appendingPathComponent("sdk/captures"),
            ["webAppToken": webAppToken, "environment": "UAT"], expect: 201)
        return (try #require(body["captureId"] as? String), try #require(body["processId"] as? String))
    }

    /// The user finishing an open capture (`POST /sdk/captures/{id}/finish`).
    private func finishCapture(_ h: WorkersHarness, _ captureID: String, outcome: String) async throws {
        _ = try await post(
            h.emulatorURL.appendingPathComponent("sdk/captures/\(captureID)/finish"),
            ["outcome": outcome], expect: 200)
    }

    private func post(_ url: URL, _ json: [String: Any], expect status: Int) async throws -> [String: Any] {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == status, "\(String(decoding: data, as: UTF8.self))")
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
