import Foundation
import HTTPServer
import Testing
import Timestamps

@Suite("HTTPServer access log")
struct AccessLogTests {
    @Test func entriesCarryRouteStatusSizeAndRequestIDButNoSecrets() async throws {
        var router = Router()
        router.post("/v1/journeys/{id}/token") { _ in .text("hello") }
        let log = LogRecorder()
        try await withServer(router, log: log) { port in
            let response = try await rawRequest(
                port: port, "POST", "/v1/journeys/person-4711/token?cpf=12345678900",
                headers: ["Authorization": "Bearer sekret-token", "X-Request-ID": "req-1"],
                body: #"{"document":"99999"}"#)
            #expect(response.status == 200)
            _ = try await rawRequest(port: port, "GET", "/unknown/person-4711")
            let entries = try await log.waitFor(count: 2)
            try #require(entries.count == 2)
            let hit = try #require(entries.first { $0.requestID == "req-1" })
            #expect(hit.method == .post)
            #expect(hit.route == "/v1/journeys/{id}/token")
            #expect(hit.status == .ok)
            #expect(hit.bytes == 5)
            #expect(hit.duration > .zero)
            #expect(hit.completed)
            let miss = try #require(entries.first { $0.requestID != "req-1" })
            #expect(miss.route == nil)
            #expect(miss.status == .notFound)
            #expect(miss.requestID == response.header("X-Request-ID") || miss.requestID.count > 8)

            for line in entries.map(\.jsonLine) {
                for secret in ["person-4711", "12345678900", "sekret", "99999", "cpf"] {
                    #expect(!line.contains(secret))
                }
                let json = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(json["message"] as? String == "http.access")
                #expect(json["label"] as? String == "http")
                #expect(json["level"] as? String == "info")
            }
            let json = try #require(JSONSerialization.jsonObject(with: Data(hit.jsonLine.utf8)) as? [String: Any])
            #expect(json["route"] as? String == "/v1/journeys/{id}/token")
            #expect(json["status"] as? Int == 200)
            #expect(json["request_id"] as? String == "req-1")
            #expect(json["bytes"] as? Int == 5)
            #expect(json["ts"] as? String == RFC3339.string(from: hit.timestamp))
        }
    }

    /// The access log is a ``LogLine`` like every other log: `ts`, `level`, `label`, `message`
    /// first, then its fields in a fixed order.
    @Test func aLineFollowsTheOneLogSchema() {
        let entry = AccessLogEntry(
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.25), method: .get, route: nil, status: .notFound,
            duration: .microseconds(1500), bytes: 12, requestID: "r\"1", errorType: "Boom", completed: false)
        #expect(
            entry.jsonLine
                == #"{"ts":"2027-01-15T08:00:00.250000Z","level":"info","label":"http","message":"http.access","#
                + #""method":"GET","route":null,"status":404,"duration_ms":1.5,"bytes":12,"request_id":"r\"1","#
                + #""error_type":"Boom","completed":false}"#)
    }
}
