import Foundation
import HTTPServer
import EventStore
import HumanTokenAPI
import JourneyDomain
@testable import JourneyAPI
import JourneyEngine
import JourneyTesting
import SDKLiteSimulator
import Testing
import UnicoEmulator

/// A started journey whose device finished the capture: ids, tokens and Unico's process id.
struct Captured: Sendable {
    let id: String
    let clientToken: String
    let processID: String
}

extension JourneyHarness {
    /// Starts a journey and runs the simulated device as `user` (no callback is sent).
    func capture(_ user: SimulatedUser) async throws -> Captured {
        let started = try await start()
        #expect(started.status == 201)
        let id = try #require(started["journeyId"] as? String)
        let clientToken = try #require(started["clientToken"] as? String)
        let webAppToken = try #require(started["webAppToken"] as? String)
        _ = try await send("POST", "/v1/journeys/\(id)/capture-opened", bearer: clientToken)
        let outcome = await SimulatedDevice(emulatorURL: emulatorURL).run(webAppToken: webAppToken, environment: .UAT, user: user)
        return Captured(id: id, clientToken: clientToken, processID: try #require(outcome.processId))
    }

    func callbackSuccess(_ c: Captured) async throws -> Answer {
        try await send(
            "POST", "/v1/journeys/\(c.id)/callback", bearer: c.clientToken,
            json: ["outcome": "success", "processId": c.processID])
    }

    /// Asks `GET /v1/journeys/{id}` until it answers `status`.
    func waitForStatus(_ id: String, _ status: String) async throws -> Answer {
        try await waitFor("journey \(id) \(status)") {
            let journey = try await send("GET", "/v1/journeys/\(id)", bearer: reader)
            return journey["status"] as? String == status ? journey : nil
        }
    }

    func count(_ type: String, _ id: String) async throws -> Int {
        try await eventTypes(id).filter { $0 == type }.count
    }

    func allEventData() async throws -> String {
        let rows = try await database.owner.query("SELECT data::text FROM events")
        return try rows.map { try $0.decode(0, as: String.self) }.joined(separator: "\n")
    }

    func webhook(_ payload: [String: any Sendable], headers: [String: String]) async throws -> Answer {
        try await send("POST", "/v1/webhooks/unico", headers: headers, json: payload)
    }
}

private let bearerAuth = WebhookAuthenticator(.bearer(token: "wh-secret-token"))
private let bearerHeader = ["Authorization": "Bearer wh-secret-token"]
private let oauthAuth = WebhookAuthenticator(.oauth2(WebhookTokenIssuer(clientID: "unico", clientSecret: "s3cret:with:colons")))

@Suite(.serialized) struct ResultAndWebhookTests {
    @Test func approvedCallbackCompletesWithSealedHumanToken() async throws {
        try await withJourneys { h in
            let c = try await h.capture(.approve)
            let callback = try await h.callbackSuccess(c)
            #expect(callback.status == 200)
            #expect(callback["status"] as? String == "completed")
            let journey = try await h.send("GET", "/v1/journeys/\(c.id)", bearer: h.reader)
            #expect(journey["status"] as? String == "completed")
            #expect(journey["outcome"] as? String == "approved")
            #expect(!String(decoding: journey.body, as: UTF8.self).contains("humanToken"))
            let process = try await h.unico.getProcess(c.processID)
            let plaintext = try #require(process.humanToken)
            let opened = try await h.send("GET", "/v1/journeys/\(c.id)/human-token", bearer: h.reader, headers: h.purpose)
            #expect(opened.status == 200)
            #expect(opened["humanToken"] as? String == plaintext)
            #expect(opened.headers["cache-control"] == "no-store")
            let anonymous = try await h.send("GET", "/v1/journeys/\(c.id)/human-token")
            #expect(anonymous.status == 401)
            #expect(try await h.count("ResultFetched", c.id) == 1)
            let data = try await h.allEventData()
            #expect(data.contains("humanToken"))
            #expect(!data.contains(plaintext))
        }
    }

    @Test func rejectedCallbackCompletesRejectedWithoutHumanToken() async throws {
        try await withJourneys { h in
            let c = try await h.capture(.beRejected)
            let callback = try await h.callbackSuccess(c)
            #expect(callback.status == 200)
            let journey = try await h.send("GET", "/v1/journeys/\(c.id)", bearer: h.reader)
            #expect(journey["status"] as? String == "completed")
            #expect(journey["outcome"] as? String == "rejected")
            let token = try await h.send("GET", "/v1/journeys/\(c.id)/human-token", bearer: h.reader, headers: h.purpose)
            #expect(token.status == 404)
            #expect(token.code == "human_token_not_available")
            #expect(try await h.eventTypes(c.id).suffix(2) == ["ResultFetched", "JourneyCompleted"])
        }
    }

    @Test(arguments: [
        (
            WebhookAuthenticator(.basic(user: "unico", password: "p4ss:word")),
            UnicoEmulator.WebhookAuthentication.basic(user: "unico", password: "p4ss:word")
        ),
        (
            WebhookAuthenticator(.header(name: "X-Unico-Key", value: "k-123")),
            UnicoEmulator.WebhookAuthentication.apiKey(header: "X-Unico-Key", value: "k-123")
        ),
        (bearerAuth, UnicoEmulator.WebhookAuthentication.bearer(token: "wh-secret-token")),
        (
            oauthAuth,
            UnicoEmulator.WebhookAuthentication.oauth2(
                tokenURL: "/v1/unico/oauth/token", clientID: "unico", clientSecret: "s3cret:with:colons")
        ),
    ])
    func emulatorWebhookBeforeCallbackCompletesTheJourney(
        service: WebhookAuthenticator, emulator: UnicoEmulator.WebhookAuthentication
    ) async throws {
        try await withJourneys(webhook: service, emulatorAuth: emulator) { h in
            let c = try await h.capture(.approve)
            // No callback: the webhook alone leads to Get Process and the completion.
            let journey = try await h.waitForStatus(c.id, "completed")
            #expect(journey["status"] as? String == "completed", "\(service.modeName)")
            #expect(journey["outcome"] as? String == "approved")
            #expect(try await h.count("WebhookReceived", c.id) >= 1)
            #expect(try await h.count("ResultFetched", c.id) == 1)
            let process = try await h.unico.getProcess(c.processID)
            let opened = try await h.send("GET", "/v1/journeys/\(c.id)/human-token", bearer: h.reader, headers: h.purpose)
            #expect(opened["humanToken"] as? String == process.humanToken)
            // The app's callback arriving late answers the final state and changes nothing.
            let late = try await h.callbackSuccess(c)
            #expect(late.status == 200)
            #expect(late["status"] as? String == "completed")
            let wrongProcess = try await h.send(
                "POST", "/v1/journeys/\(c.id)/callback", bearer: c.clientToken,
                json: ["outcome": "success", "processId": "another-process"])
            #expect(wrongProcess.status == 409)
            let lateError = try await h.send(
                "POST", "/v1/journeys/\(c.id)/callback", bearer: c.clientToken,
                json: ["outcome": "error", "code": 73302])
            #expect(lateError.status == 409)
            #expect(try await h.count("ResultFetched", c.id) == 1)
        }
    }

    @Test func wrongOrMissingCredentialsAre401AndAudited() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let payload: [String: any Sendable] = [
                "processId": "p-1", "state": "PROCESS_STATE_FINISHED", "flow": "humantoken",
                "result": "ok",
            ]
            let missing = try await h.webhook(payload, headers: [:])
            #expect(missing.status == 401)
            #expect(missing.code == "webhook_unauthorized")
            #expect(missing.headers["content-type"] == "application/problem+json")
            let wrong = try await h.webhook(payload, headers: ["Authorization": "Bearer wh-secret-tokem"])
            #expect(wrong.status == 401)
            let basic = try await h.webhook(payload, headers: ["Authorization": "Basic d2g6c2VjcmV0"])
            #expect(basic.status == 401)
            let metrics = h.metricsText()
            #expect(metrics.contains(#"webhook_requests_total{outcome="unauthorized"} 3"#))
            #expect(!metrics.contains("wh-secret"))
        }
        // Not configured: every webhook is refused.
        try await withJourneys { h in
            let answer = try await h.webhook(["processId": "p", "state": "s"], headers: bearerHeader)
            #expect(answer.status == 401)
        }
    }

    @Test func unknownProcessIs202AndMalformedIs400() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let unknown = try await h.webhook(
                [
                    "processId": "no-such-process", "state": "PROCESS_STATE_FINISHED",
                    "flow": "humantoken", "result": "ok",
                ], headers: bearerHeader)
            #expect(unknown.status == 202)
            #expect(unknown.code == "unknown_process")
            #expect(try await h.journeyCount() == 0)
            let unmatched = try await h.database.owner.query(
                """
                SELECT event_type, data->>'processId', actor FROM events WHERE stream_name = 'unico-webhooks'
                """)
            #expect(unmatched.count == 1)
            #expect(try unmatched.first?.decode(0, as: String.self) == "UnmatchedWebhookReceived")
            #expect(try unmatched.first?.decode(1, as: String.self) == "no-such-process")
            #expect(try unmatched.first?.decode(2, as: String.self) == "unico-webhook")
            let malformed = try await h.send(
                "POST", "/v1/webhooks/unico",
                headers: bearerHeader.merging(
                    ["Content-Type": "application/json"]) { $1 }, json: ["state": "x"])
            #expect(malformed.status == 400)
            #expect(malformed.headers["content-type"] == "application/problem+json")
            let wrongType = try await h.webhook(["processId": 42, "state": "x"], headers: bearerHeader)
            #expect(wrongType.status == 400)
            // Found by the API fuzzer: a NUL in a string became a 500 when the event hit jsonb.
            let nul = try await h.webhook(
                ["processId": "p-1", "state": "PROCESS_STATE_FINISHED", "result": "o\u{0}k"],
                headers: bearerHeader)
            #expect(nul.status == 400)
            #expect(nul.code == "invalid_json")
        }
    }

    @Test func duplicateAndOutOfOrderWebhooksRecordOneResult() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let c = try await h.capture(.approve)
            let payload: [String: any Sendable] = [
                "processId": c.processID, "state": "PROCESS_STATE_FINISHED",
                "flow": "humantoken", "result": "ok",
            ]
            async let first = h.webhook(payload, headers: bearerHeader)
            async let second = h.webhook(payload, headers: bearerHeader)
            let answers = try await [first, second]
            #expect(answers.allSatisfy { $0.status == 200 })
            // A stale notice delivered after the result changes nothing either.
            let stale = try await h.webhook(
                [
                    "processId": c.processID, "state": "PROCESS_STATE_CREATED",
                    "flow": "humantoken",
                ], headers: bearerHeader)
            #expect(stale.status == 200)
            #expect(stale["status"] as? String == "completed")
            #expect(try await h.count("WebhookReceived", c.id) == 3)
            #expect(try await h.count("ResultFetched", c.id) == 1)
            #expect(try await h.count("JourneyCompleted", c.id) == 1)
            let journey = try await h.send("GET", "/v1/journeys/\(c.id)", bearer: h.reader)
            #expect(journey["outcome"] as? String == "approved")
            let late = try await h.callbackSuccess(c)
            #expect(late.status == 200)
            let plaintext = try #require(try await h.unico.getProcess(c.processID).humanToken)
            #expect(!(try await h.allEventData()).contains(plaintext))
        }
    }

    @Test func processLookupIsWrittenWithTheProcessAndIsInsertOnlyForTheService() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let c = try await h.capture(.approve)
            let rows = try await h.database.owner.query(
                """
                SELECT p.journey_id, p.attempt, e.data->>'processID' FROM process_journeys p
                JOIN events e ON e.event_type = 'ProcessCreated' AND e.stream_name = 'journey-' || p.journey_id
                """)
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(try row.decode(0, as: String.self) == c.id)
            #expect(try row.decode(1, as: Int.self) == 1)
            #expect(try row.decode(2, as: String.self) == c.processID)
            await #expect(throws: (any Error).self) {
                try await h.database.app.query("DELETE FROM process_journeys")
            }
            await #expect(throws: (any Error).self) {
                try await h.database.app.query("UPDATE process_journeys SET attempt = 2")
            }
        }
    }

    @Test func concurrentFetchesRecordOneResultAndNeverFail() async throws {
        try await withJourneys { h in
            let c = try await h.capture(.approve)
            let id = JourneyID(c.id)
            // Await the result without the route's own fetch: record the callback directly.
            let journeys = Journeys(
                database: h.database.app,
                dependencies: .development(database: h.database.app, unico: [.uat: h.unico]))
            try await journeys.commands.execute(
                .recordCallback(attempt: 1, outcome: .success(processID: ProcessID(c.processID))),
                journey: id, metadata: EventMetadata(actor: "test"))
            let outcomes = try await withThrowingTaskGroup(of: ResultFetch.self) { group in
                for _ in 0..<6 { group.addTask { try await journeys.fetchResult(id) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .recorded(.completed) }.count == 1)
            #expect(outcomes.allSatisfy { $0 == .recorded(.completed) || $0 == .alreadyRecorded || $0 == .nothingToFetch })
            #expect(try await h.count("ResultFetched", c.id) == 1)
            #expect(try await journeys.fetchResult(id) == .nothingToFetch)
        }
    }

    @Test func getProcessFailureLeavesTheJourneyAwaitingItsResult() async throws {
        let faults = FaultScript(routes: [FaultScript.Route.getProcess.rawValue: .init(serverErrorRate: 1)])
        try await withJourneys(faults: faults, webhook: bearerAuth) { h in
            let c = try await h.capture(.approve)
            let callback = try await h.callbackSuccess(c)
            #expect(callback.status == 200)
            #expect(callback["status"] as? String == "awaitingResult")
            let webhook = try await h.webhook(
                [
                    "processId": c.processID, "state": "PROCESS_STATE_FINISHED",
                    "flow": "humantoken", "result": "ok",
                ], headers: bearerHeader)
            #expect(webhook.status == 200)
            #expect(webhook["status"] as? String == "awaitingResult")
            #expect(try await h.count("ResultFetched", c.id) == 0)
            #expect(h.metricsText().contains(#"result_fetches_total{outcome="failed",trigger="webhook"} 1"#))
            #expect(h.metricsText().contains(#"result_fetches_total{outcome="failed",trigger="callback"} 1"#))
            let token = try await h.send("GET", "/v1/journeys/\(c.id)/human-token", bearer: h.reader, headers: h.purpose)
            #expect(token.status == 404)
        }
    }

    @Test func unfinishedProcessRecordsResultPendingThenTheWebhookCompletes() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let webAppToken = try #require(started["webAppToken"] as? String)
            let rows = try await h.database.owner.query(
                "SELECT process_id FROM process_journeys WHERE journey_id = \(id)")
            let processID = try #require(try rows.first?.decode(0, as: String.self))
            // A (premature) success callback: Unico has not finished, so the result is pending.
            let early = try await h.send(
                "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
                json: ["outcome": "success", "processId": processID])
            #expect(early.status == 200)
            #expect(early["status"] as? String == "awaitingResult")
            #expect(try await h.count("ResultPending", id) == 1)
            let outcome = await SimulatedDevice(emulatorURL: h.emulatorURL).run(
                webAppToken: webAppToken, environment: .UAT,
                user: .approve)
            #expect(outcome.processId == processID)
            let webhook = try await h.webhook(
                [
                    "processId": processID, "state": "PROCESS_STATE_FINISHED",
                    "flow": "humantoken", "result": "ok",
                ], headers: bearerHeader)
            #expect(webhook.status == 200)
            #expect(webhook["status"] as? String == "completed")
            #expect(webhook["journeyId"] as? String == id)
            #expect(try await h.count("ResultFetched", id) == 1)
        }
    }

    @Test func webhookForASupersededAttemptDoesNotMoveTheCurrentOne() async throws {
        try await withJourneys(webhook: bearerAuth) { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let firstProcess = try #require(
                try await h.database.owner.query(
                    "SELECT process_id FROM process_journeys WHERE journey_id = \(id) AND attempt = 1"
                ).first?
                .decode(0, as: String.self))
            let failed = try await h.send(
                "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
                json: ["outcome": "error", "code": 73302])
            #expect(failed.status == 200)
            let fresh = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(fresh["attempt"] as? Int == 2)
            let late = try await h.webhook(
                [
                    "processId": firstProcess, "state": "PROCESS_STATE_FINISHED",
                    "flow": "humantoken", "result": "expired",
                ], headers: bearerHeader)
            #expect(late.status == 200)
            #expect(late["status"] as? String == "tokenIssued")
            let journey = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            #expect(journey["status"] as? String == "tokenIssued")
            #expect(journey["attempt"] as? Int == 2)
            #expect(try await h.count("WebhookReceived", id) == 1)
            #expect(try await h.count("ResultFetched", id) == 0)
        }
    }

    @Test func webhookAuthenticationParsesTheDocumentedFormats() throws {
        let secret = "Zq3xW9bT7kLm2Rp8Vn4Yc6Hd1Fg5Js0Ua:Ee7Ki9Oo3Xw"  // 32 random bytes or more, colons allowed
        #expect(try WebhookAuthenticator(parsing: "basic:u:\(secret)").mode == .basic(user: "u", password: secret))
        #expect(try WebhookAuthenticator(parsing: "header:X-Key:\(secret)").mode == .header(name: "X-Key", value: secret))
        #expect(try WebhookAuthenticator(parsing: "bearer:\(secret)").mode == .bearer(token: secret))
        #expect(throws: (any Error).self) { try WebhookAuthenticator(parsing: "digest:x") }
        #expect(throws: (any Error).self) { try WebhookAuthenticator(parsing: "basic:nouser") }
        #expect(try WebhookAuthenticator.fromEnvironment([:]) == nil)
        #expect(WebhookAuthenticator.configured(["UNICO_WEBHOOK_AUTH": "bearer:\(secret)"])?.mode == .bearer(token: secret))
        #expect(WebhookAuthenticator.configured(["UNICO_WEBHOOK_AUTH": "nonsense"]) == nil)
        let header = WebhookAuthenticator(.header(name: "X-Key", value: "v"))
        #expect(header.accepts(["X-Key": "v"]))
        #expect(!header.accepts(["X-Key": "w"]))
        #expect(!header.accepts([:]))
    }
}
