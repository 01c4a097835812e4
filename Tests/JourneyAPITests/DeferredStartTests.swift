import AccessControl
import Foundation
import JourneyTesting
import Testing

/// `POST /v1/journeys` makes no Unico call by default: the app's first token request makes
/// attempt 1's process (seed: "Create it right before opening the capture"), and a person who
/// comes back later gets a fresh client token from the company's backend.
@Suite struct DeferredStartTests {
    @Test func aStartMakesNoProcessAndTheAppsFirstTokenRequestMakesIt() async throws {
        try await withJourneys { h in
            var body = JourneyHarness.startBody()
            body["createProcess"] = nil
            let started = try await h.start(body, key: "sign-up")
            #expect(started.status == 201, "\(started.text)")
            #expect(started["status"] as? String == "started")
            #expect(started["webAppToken"] == nil && started["attempt"] == nil)
            #expect(started["firstTokenBy"] is String && started["clientTokenExpiresAt"] is String)
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            #expect(try await h.eventTypes(id) == ["JourneyStarted"])
            #expect(try await Self.processCount(h, journey: id) == 0)
            // A replay of the key answers the same, still without a process.
            let replay = try await h.start(body, key: "sign-up")
            #expect(replay.status == 201 && replay.body == started.body)

            let token = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(token.status == 200, "\(token.text)")
            #expect(token["attempt"] as? Int == 1 && token["webAppToken"] is String)
            #expect(
                try await h.eventTypes(id) == ["JourneyStarted", "ProcessCreationRequested", "ProcessCreated", "TokenIssued"])
            #expect(try await Self.processCount(h, journey: id) == 1)
        }
    }

    @Test func createProcessNowAnswersWithTheTokenAndOtherValuesAreRefused() async throws {
        try await withJourneys { h in
            let now = try await h.start(JourneyHarness.startBody { $0["createProcess"] = "now" })
            #expect(now.status == 201 && now["webAppToken"] is String && now["attempt"] as? Int == 1)
            let bad = try await h.start(JourneyHarness.startBody { $0["createProcess"] = "later" })
            #expect(bad.status == 422 && bad["field"] as? String == "createProcess", "\(bad.text)")
            #expect(try await h.journeyCount() == 1)
        }
    }

    @Test func theDeliveryIsExplicitAndNeverInferredFromNotificationChannels() async throws {
        try await withJourneys { h in
            func body(delivery: String?, channels: [String]) -> [String: Any] {
                var body = JourneyHarness.startBody()
                var subject = try! #require(body["subject"] as? [String: Any])
                subject["phone"] = "+5511987654321"
                if !channels.isEmpty { subject["notificationChannels"] = channels }
                body["subject"] = subject
                body["createProcess"] = nil
                body["delivery"] = delivery
                return body
            }
            let silent = try await h.start(body(delivery: nil, channels: ["NOTIFICATION_CHANNEL_SMS"]))
            #expect(silent.status == 422 && silent["field"] as? String == "subject.notificationChannels", "\(silent.text)")
            let empty = try await h.start(body(delivery: "link", channels: []))
            #expect(empty.status == 422 && empty["field"] as? String == "subject.notificationChannels")
            let unknown = try await h.start(body(delivery: "carrier-pigeon", channels: []))
            #expect(unknown.status == 422 && unknown["field"] as? String == "delivery")
            #expect(try await h.journeyCount() == 0)
            // A link journey gets its process with the start (Unico notifies the person).
            let link = try await h.start(body(delivery: "link", channels: ["NOTIFICATION_CHANNEL_SMS"]))
            #expect(link.status == 201 && link["attempt"] as? Int == 1, "\(link.text)")
        }
    }

    @Test func aPersonWhoComesBackGetsAFreshClientTokenFromTheBackend() async throws {
        try await withJourneys { h in
            var body = JourneyHarness.startBody()
            body["createProcess"] = nil
            let started = try await h.start(body)
            let id = try #require(started["journeyId"] as? String)
            let renewed = try await h.send("POST", "/v1/journeys/\(id)/client-token", bearer: h.writer)
            #expect(renewed.status == 201, "\(renewed.text)")
            #expect(renewed["status"] as? String == "started")
            let fresh = try #require(renewed["clientToken"] as? String)
            #expect(fresh != started["clientToken"] as? String)
            // The fresh token works on the app's routes; the old one still does until it expires.
            let token = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: fresh)
            #expect(token.status == 200 && token["attempt"] as? Int == 1)
            let old = try await h.send(
                "POST", "/v1/journeys/\(id)/token", bearer: try #require(started["clientToken"] as? String))
            #expect(old.status == 200 && old["webAppToken"] as? String == token["webAppToken"] as? String)
            // Nothing is recorded for the renewal itself.
            #expect(try await h.eventTypes(id).filter { $0 == "JourneyStarted" }.count == 1)
            // Only the backend's write key may ask: the app's token and a read key may not.
            let byApp = try await h.send("POST", "/v1/journeys/\(id)/client-token", bearer: fresh)
            #expect(byApp.status == 401 || byApp.status == 403, "\(byApp.text)")
            let byReader = try await h.send("POST", "/v1/journeys/\(id)/client-token", bearer: h.reader)
            #expect(byReader.status == 403 && byReader["scope"] as? String == Scope.journeysWrite.rawValue)
            let unknown = try await h.send(
                "POST", "/v1/journeys/\(UUID().uuidString.lowercased())/client-token", bearer: h.writer)
            #expect(unknown.status == 404)
        }
    }

    /// Unico processes recorded for the journey (the webhook lookup rows, one per created process).
    static func processCount(_ h: JourneyHarness, journey: String) async throws -> Int {
        let rows = try await h.database.owner.query("SELECT count(*)::int FROM process_journeys WHERE journey_id = \(journey)")
        return try rows.first?.decode(0, as: Int.self) ?? 0
    }
}
