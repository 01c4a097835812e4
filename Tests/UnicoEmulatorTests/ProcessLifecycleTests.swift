import Foundation
import Testing
import UnicoEmulator

@Suite("Create and Get Process")
struct ProcessLifecycleTests {
    @Test func createThenGetReturnsTheDocumentedShape() async throws {
        try await withEmulator { fixture in
            let token = try await fixture.accessToken()
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
            #expect(reply.status == 200)
            let json = try reply.json()
            #expect(json.keys.sorted() == ["process"], "wrapped (the default) sends the fields only inside process")
            let process = try #require(json["process"] as? [String: Any])
            let id = try #require(process["id"] as? String)
            for field in ["id", "token", "link", "webAppToken"] {
                #expect((process[field] as? String)?.isEmpty == false)
            }
            #expect(process["state"] as? String == "PROCESS_STATE_CREATED")
            #expect(process["token"] as? String != process["webAppToken"] as? String)
            #expect(process["link"] as? String == "\(fixture.emulator.baseURL!.absoluteString)/link/\(id)")
            #expect(process["createdAt"] as? String == "2026-01-01T00:00:00.000Z")
            #expect(process["expiresAt"] as? String == "2026-01-02T00:00:00.000Z")
            #expect(process["clientReference"] as? String == "journey-1")

            let got = try await fixture.client.send("GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(token)"])
            #expect(got.status == 200)
            let fetched = try #require(try got.json()["process"] as? [String: Any])
            #expect(fetched["id"] as? String == id)
            #expect(fetched["state"] as? String == "PROCESS_STATE_CREATED")
            #expect(fetched["result"] as? String == "PROCESS_RESULT_UNSPECIFIED")
            #expect(fetched["finishedAt"] == nil)
            #expect(fetched["webAppToken"] == nil)
            #expect(fetched["data"] == nil)

            let listed = fixture.emulator.processes()
            #expect(listed.map(\.id) == [id])
            #expect(listed.first?.tenantID == "tenant-a")
            #expect(listed.first?.environment == .uat)
            #expect(listed.first?.clientReference == "journey-1")
            #expect(fixture.emulator.process(id: id)?.state == .created)
        }
    }

    @Test func theFlatShapeSendsTheFieldsOnlyAtTheTopLevel() async throws {
        try await withEmulator({ $0.responseShape = .flat }) { fixture in
            let token = try await fixture.accessToken()
            let reply = try await fixture.client.json("POST", "/processes", bearer: token, Fixture.validBody)
            #expect(reply.status == 200)
            let json = try reply.json()
            #expect(json["process"] == nil)
            let id = try #require(json["id"] as? String)
            for field in ["token", "link", "webAppToken"] { #expect((json[field] as? String)?.isEmpty == false) }
            let got = try await fixture.client.send("GET", "/processes/\(id)", headers: ["Authorization": "Bearer \(token)"])
            let fetched = try got.json()
            #expect(fetched["process"] == nil)
            #expect(fetched["id"] as? String == id)
            #expect(fetched["state"] as? String == "PROCESS_STATE_CREATED")
        }
    }
}
