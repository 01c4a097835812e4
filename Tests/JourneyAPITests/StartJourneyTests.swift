import Foundation
import SDKLiteSimulator
import Testing
import UnicoEmulator

@Suite(.serialized) struct StartJourneyTests {
    @Test func startThenDeviceApprovesThenCallbackIsRecorded() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201)
            let id = try #require(started["journeyId"] as? String)
            let webAppToken = try #require(started["webAppToken"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            #expect(started["attempt"] as? Int == 1)
            #expect(started["environment"] as? String == "UAT")

            let opened = try await h.send("POST", "/v1/journeys/\(id)/capture-opened", bearer: clientToken)
            #expect(opened.status == 200)
            let outcome = await SimulatedDevice(emulatorURL: h.emulatorURL).run(
                webAppToken: webAppToken, environment: .UAT, user: .approve)
            let processID = try #require(outcome.processId)
            let callback = try await h.send(
                "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
                json: ["outcome": "success", "processId": processID])
            #expect(callback.status == 200)
            #expect(callback["status"] as? String == "completed")

            let journey = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            #expect(journey.status == 200)
            #expect(journey["status"] as? String == "completed")
            #expect(journey["outcome"] as? String == "approved")
            #expect(journey["clientReference"] as? String == "order-42")
            #expect(
                try await h.eventTypes(id) == [
                    "JourneyStarted", "ProcessCreationRequested", "ProcessCreated",
                    "TokenIssued", "CaptureOpened", "CallbackReceived",
                    "ResultFetched", "JourneyCompleted",
                ])
            let events = try await h.send("GET", "/v1/journeys/\(id)/events", bearer: h.reader)
            let list = try #require(events["events"] as? [[String: Any]])
            #expect(list.count == 8)
            #expect(list.allSatisfy { ($0["hash"] as? String)?.count == 64 })
        }
    }

    @Test func tokenRouteReturnsTheCurrentTokenAndErrorCallbacksCarryTheCatalogMeaning() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            let id = try #require(started["journeyId"] as? String)
            let clientToken = try #require(started["clientToken"] as? String)
            let token = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(token.status == 200)
            #expect(token["webAppToken"] as? String == started["webAppToken"] as? String)
            #expect(token["attempt"] as? Int == 1)
            let byKey = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: h.writer)
            #expect(byKey.status == 200)
            let failed = try await h.send(
                "POST", "/v1/journeys/\(id)/callback", bearer: clientToken,
                json: ["outcome": "error", "code": 73302])
            #expect(failed.status == 200)
            let journey = try await h.send("GET", "/v1/journeys/\(id)", bearer: h.reader)
            let last = try #require(journey["lastErrorCode"] as? [String: Any])
            #expect(last["code"] as? Int == 73302)
            #expect((last["meaning"] as? String)?.isEmpty == false)
            let again = try await h.send(
                "POST", "/v1/journeys/\(id)/capture-opened", bearer: clientToken,
                json: ["attempt": 1])
            #expect(again.status == 409)
            #expect(again.headers["content-type"] == "application/problem+json")
            let fresh = try await h.send("POST", "/v1/journeys/\(id)/token", bearer: clientToken)
            #expect(fresh.status == 200)
            #expect(fresh["attempt"] as? Int == 2)
            #expect(fresh["webAppToken"] as? String != started["webAppToken"] as? String)
        }
    }

    @Test func validationErrorsNameTheField() async throws {
        try await withJourneys { h in
            let noNumber = try await h.start(
                JourneyHarness.startBody {
                    $0["subject"] = ["documentType": "DUI_TYPE_BR_CPF"]
                })
            #expect(noNumber.status == 422)
            #expect(noNumber.code == "validation_failed")
            #expect(noNumber["field"] as? String == "subject.documentNumber")
            let environment = try await h.start(JourneyHarness.startBody { $0["environment"] = "DEV" })
            #expect(environment.status == 422)
            #expect(environment["field"] as? String == "environment")
            #expect(try await h.journeyCount() == 0)
        }
    }

    @Test func apiKeysAndScopes() async throws {
        try await withJourneys { h in
            let none = try await h.send("POST", "/v1/journeys", json: JourneyHarness.startBody())
            #expect(none.status == 401)
            #expect(none.headers["www-authenticate"] != nil)
            let bad = try await h.send("POST", "/v1/journeys", bearer: "jk_aaaaaaaa_nope", json: JourneyHarness.startBody())
            #expect(bad.status == 401)
            let readOnly = try await h.send("POST", "/v1/journeys", bearer: h.reader, json: JourneyHarness.startBody())
            #expect(readOnly.status == 403)
            #expect(readOnly.code == "forbidden")
            let unknown = try await h.send("GET", "/v1/journeys/\(UUID().uuidString.lowercased())", bearer: h.reader)
            #expect(unknown.status == 404)
            #expect(unknown.code == "journey_not_found")
            let unknownEvents = try await h.send("GET", "/v1/journeys/not-a-uuid/events", bearer: h.reader)
            #expect(unknownEvents.status == 404)
            let anonymous = try await h.send("GET", "/v1/journeys/\(UUID().uuidString)")
            #expect(anonymous.status == 401)
        }
    }

    @Test func clientTokenOfOneJourneyCannotTouchAnother() async throws {
        try await withJourneys { h in
            let a = try await h.start()
            let b = try await h.start()
            let tokenA = try #require(a["clientToken"] as? String)
            let idB = try #require(b["journeyId"] as? String)
            for path in ["capture-opened", "callback", "token"] {
                let answer = try await h.send(
                    "POST", "/v1/journeys/\(idB)/\(path)", bearer: tokenA,
                    json: ["outcome": "error", "code": 73302])
                #expect(answer.status == 403, "\(path)")
                #expect(answer.code == "wrong_journey", "\(path)")
            }
            let missing = try await h.send("POST", "/v1/journeys/\(idB)/capture-opened")
            #expect(missing.status == 401)
            #expect(try await h.eventTypes(idB).count == 4)
        }
    }

    @Test func eventsHoldNoPlaintextPersonalData() async throws {
        try await withJourneys { h in
            let started = try await h.start()
            #expect(started.status == 201)
            let rows = try await h.database.owner.query("SELECT data::text FROM events")
            let text = try rows.map { try $0.decode(0, as: String.self) }.joined()
            #expect(!text.isEmpty)
            for secret in ["12345678909", "Maria Silva Souza", "Maria", try #require(started["webAppToken"] as? String)] {
                #expect(!text.contains(secret))
            }
        }
    }
}
