import Foundation
import JourneyDomain
import Testing
import UnicoEmulator
import Workers

@Suite(.serialized) struct ExpiryAndRetryTests {
    @Test func tokenExpiresOnTheFirstPollAfterItsLifetimeThenTheRetryIsAllowedWithoutAProcess() async throws {
        let policy = RetryPolicy(initialInterval: 10, maximumAttempts: 2, jitterFraction: 0, abandonAfter: 120)
        try await withWorkers(policy: policy) { h in
            let id = try await h.startCreated()
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)
            let worker = try h.worker()

            h.clock.set(expiresAt.addingTimeInterval(-1))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .tokenIssued)

            // The default poll interval is 2 s: the first poll after expiry sees it.
            let poll = WorkerService.Configuration().pollInterval
            #expect(poll <= .seconds(5))
            h.clock.set(expiresAt.addingTimeInterval(2))
            #expect(try await h.poll(worker) == 1)
            let expired = try await h.state(id)
            #expect(expired.status == .retryScheduled)
            let attempt = try #require(expired.attempt(1))
            let detected = try #require(attempt.tokenExpiredAt)
            #expect(detected.timeIntervalSince(expiresAt) >= 0)
            #expect(detected.timeIntervalSince(expiresAt) <= 30)
            #expect(attempt.retryAt == detected.addingTimeInterval(10))

            // The read model lags behind the worker's own append: the same item does not run again.
            #expect(try await worker.runOnce() == 0)
            #expect(try await h.eventTypes(id).filter { $0 == "TokenExpired" }.count == 1)

            // Not before the retry is due; then it is allowed, but no process is created before
            // the app asks for a token (SDK journey: a fresh process right before each capture).
            h.clock.set(detected.addingTimeInterval(9))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryScheduled)
            h.clock.set(detected.addingTimeInterval(10))
            try await h.poll(worker)
            let allowed = try await h.state(id)
            #expect(allowed.status == .retryAvailable)
            #expect(allowed.currentAttemptNumber == 1)
            #expect(try await h.eventTypes(id).last == "RetryAllowed")
            #expect(h.emulator.processes().count == 1)

            // The user never comes back: abandoned after the policy's window; one Unico process in all.
            h.clock.set(detected.addingTimeInterval(10 + 119))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryAvailable)
            h.clock.set(detected.addingTimeInterval(10 + 121))
            try await h.poll(worker)
            let abandoned = try await h.state(id)
            #expect(abandoned.status == .abandoned)
            #expect(abandoned.abandonReason?.kind == .userAbsent)
            #expect(try await h.eventTypes(id).suffix(2) == ["RetryAllowed", "JourneyAbandoned"])
            try await h.poll(worker)
            #expect(h.emulator.processes().count == 1)
        }
    }

    @Test func theAppsTokenRequestAfterAnAllowedRetryCreatesTheNextAttemptsProcess() async throws {
        let policy = RetryPolicy(initialInterval: 10, maximumAttempts: 2, jitterFraction: 0)
        try await withWorkers(policy: policy) { h in
            let id = try await h.startCreated()
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)
            let worker = try h.worker()
            h.clock.set(expiresAt.addingTimeInterval(1))
            try await h.poll(worker)
            h.clock.set(expiresAt.addingTimeInterval(12))
            try await h.poll(worker)
            #expect(try await h.state(id).status == .retryAvailable)
            #expect(h.emulator.processes().count == 1)

            let token = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token")
            #expect(token.status == 200)
            #expect(token["attempt"] as? Int == 2)
            let retried = try await h.state(id)
            #expect(retried.status == .tokenIssued)
            #expect(retried.currentAttempt?.trigger == .tokenRequest)
            #expect(h.processesPerClientReference().values.allSatisfy { $0 == 1 })
            #expect(h.emulator.processes().count == 2)

            // Budget spent: the second expiry abandons the journey with the reason.
            let second = try #require(retried.currentAttempt?.tokenExpiresAt)
            h.clock.set(second.addingTimeInterval(1))
            try await h.poll(worker)
            let abandoned = try await h.state(id)
            #expect(abandoned.status == .abandoned)
            #expect(abandoned.abandonReason?.kind == .attemptsExhausted)
            #expect(try await h.eventTypes(id).suffix(3) == ["TokenExpired", "AttemptFailed", "JourneyAbandoned"])
            let refused = try await h.send("POST", "/v1/journeys/\(id.rawValue)/token")
            #expect(refused.status == 409)
            #expect(refused["code"] as? String == "invalid_transition")
            #expect(refused["journeyStatus"] as? String == "abandoned")
            #expect((refused["detail"] as? String)?.contains("abandoned") == true)
            #expect(h.emulator.processes().count == 2)
        }
    }

    @Test func aRetryAsksUnicoToNotifyThePersonOfTheNewLinkThroughTheJourneysChannels() async throws {
        let policy = RetryPolicy(initialInterval: 10, maximumAttempts: 2, jitterFraction: 0)
        try await withWorkers(policy: policy) { h in
            let answer = try await h.send(
                "POST", "/v1/journeys",
                json: [
                    "subject": [
                        "documentType": "DUI_TYPE_BR_CPF", "documentNumber": "12345678909", "name": "Maria Silva Souza",
                        "phone": "+5511987654321", "notificationChannels": ["NOTIFICATION_CHANNEL_SMS"],
                    ],
                    "environment": "UAT", "flow": "humantoken", "purpose": "creditprocess", "delivery": "link",
                ])
            #expect(answer.status == 201)
            let id = JourneyID(try #require(answer["journeyId"] as? String))
            let expiresAt = try #require(try await h.state(id).currentAttempt?.tokenExpiresAt)
            // The link lives as long as the process (7 days), not five minutes: nothing happens before.
            #expect(abs(expiresAt.timeIntervalSince(h.now()) - RetryPolicy.defaultLinkLifetime) < 5)
            let early = try h.worker()
            h.clock.advance(by: 3000)
            try await h.poll(early)
            #expect(try await h.state(id).currentAttemptNumber == 1 && h.emulator.processes().count == 1)
            // 50 minutes on, the app can still hand out the link.
            let client = try #require(answer["clientToken"] as? String)
            let link = try await h.send("GET", "/v1/journeys/\(id.rawValue)/link", bearer: client)
            #expect(link.status == 200 && link["link"] is String, "\(link.text)")
            // Handing out the link opened the capture: its attempt holds for the capture's grace past
            // the link's end (Unico is asked first), then expires and the retry makes a new process.
            let end = expiresAt.addingTimeInterval(policy.captureGrace)
            let worker = try h.worker()
            h.clock.set(end.addingTimeInterval(1))
            try await h.poll(worker)
            h.clock.set(end.addingTimeInterval(12))
            try await h.poll(worker)
            #expect(try await h.state(id).currentAttemptNumber == 2)
            let processes = h.emulator.processes()
            #expect(processes.count == 2)
            // Both processes, the retry's included, carry the channel: Unico sends the new link.
            #expect(processes.allSatisfy { $0.notificationChannels == ["NOTIFICATION_CHANNEL_SMS"] })
        }
    }

    @Test func aCallbackBeforeExpiryWinsOverTheExpiryTimer() async throws {
        try await withWorkers { h in
            let id = try await h.startCreated()
            #expect(try await h.capture(id))
            let state = try await h.state(id)
            // The callback route fetched the result already.
            #expect(state.status == .completed)
            let worker = try h.worker()
            h.clock.advance(by: 600)
            try await h.poll(worker)
            #expect(try await h.eventTypes(id).contains("TokenExpired") == false)
            #expect(try await h.state(id).outcome == .approved)
        }
    }

    @Test func resultFetchingRetriesAfterUnicoFailsUntilTheProcessIsFinished() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.getProcess.rawValue: .init(serverErrorRate: 0.6)])
        try await withWorkers(faults: faults) { h in
            var ids: [JourneyID] = []
            for _ in 0..<5 {
                let id = try await h.startCreated()
                #expect(try await h.capture(id))
                ids.append(id)
            }
            // Get Process failed after some callbacks: those journeys wait for their result.
            var waiting = 0
            for id in ids where try await h.state(id).status == .awaitingResult { waiting += 1 }
            #expect(waiting > 0)
            let worker = try h.worker()
            var checkedBackoff = false
            for _ in 0..<60 {
                var done = true
                for id in ids where try await h.state(id).status != .completed { done = false }
                if done { break }
                let postponed = worker.statistics.postponed
                try await h.poll(worker)
                if !checkedBackoff, worker.statistics.postponed > postponed {
                    // A failed Get Process is not tried again before its backoff (at least 5 s).
                    checkedBackoff = true
                    let rows = try await h.database.owner.query(
                        """
                        SELECT min(lease_until) FROM work_leases WHERE outcome LIKE 'fetch_failed%' AND done_at IS NULL
                        """)
                    let next = try #require(try rows.first?.decode(0, as: Date?.self))
                    #expect(next.timeIntervalSince(h.now()) >= 4.9)
                }
                h.clock.advance(by: 10)
            }
            for id in ids {
                #expect(try await h.state(id).status == .completed)
                #expect(try await h.state(id).outcome == .approved)
            }
            #expect(checkedBackoff)
        }
    }
}
