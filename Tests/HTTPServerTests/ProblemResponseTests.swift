import Foundation
import HTTPServer
import Testing

@Suite("HTTPServer problem responses over HTTP")
struct ProblemResponseTests {
    struct Leaky: Error, CustomStringConvertible {
        var description: String { "connection string postgres://admin:hunter2@db" }
    }

    func makeRouter() -> Router {
        var router = Router()
        router.get("/conflict") { _ in
            await Task.yield()  // thrown after a suspension, as a real handler's would be
            throw Problem(
                status: .conflict, code: "journey_already_finished", detail: "The journey is finished.",
                type: "https://errors.example/journey_already_finished", extra: ["journey_id": "j1"])
        }
        router.get("/crash") { _ in throw Leaky() }
        return router
    }

    @Test func thrownProblemIsRendered() async throws {
        try await withServer(makeRouter()) { port in
            let response = try await rawRequest(port: port, "GET", "/conflict")
            #expect(response.status == 409)
            #expect(response.header("Content-Type") == "application/problem+json")
            let json = try response.json()
            #expect(json["type"] as? String == "https://errors.example/journey_already_finished")
            #expect(json["title"] as? String == "Conflict")
            #expect(json["status"] as? Int == 409)
            #expect(json["code"] as? String == "journey_already_finished")
            #expect(json["detail"] as? String == "The journey is finished.")
            #expect(json["journey_id"] as? String == "j1")
        }
    }

    @Test func unexpectedErrorIs500WithoutLeaks() async throws {
        let log = LogRecorder()
        try await withServer(makeRouter(), log: log) { port in
            let response = try await rawRequest(port: port, "GET", "/crash")
            #expect(response.status == 500)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.json()["code"] as? String == "internal_error")
            #expect(!response.text.contains("hunter2"))
            #expect(!response.text.contains("Leaky"))
            let entries = try await log.waitFor(count: 1)
            #expect(entries.first?.errorType?.hasSuffix("Leaky") == true)
            #expect(entries.first.map { !$0.jsonLine.contains("hunter2") } == true)
        }
    }
}
