import Foundation
import HTTPServer
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTPServer routing over HTTP")
struct ServerRoutingTests {
    struct Item: Codable, Equatable {
        var name: String
        var count: Int
    }

    func makeRouter() -> Router {
        var router = Router()
        router.get("/v1/journeys/{id}/token") { request in
            try .json([
                "id": request.pathParameters["id"] ?? "",
                "q": request.query("q") ?? "",
                "agent": request.headers["user-agent"] ?? "",
                "remote": request.remoteAddress ?? "",
            ])
        }
        router.post("/echo") { request in
            try .json(try request.decode(Item.self), status: .created)
        }
        return router
    }

    @Test func pathParametersQueryAndHeadersReachTheHandler() async throws {
        try await withServer(makeRouter()) { port in
            let response = try await rawRequest(
                port: port, "GET", "/v1/journeys/j%2F1/token?q=a+b%26c&x",
                headers: ["USER-AGENT": "probe"])
            #expect(response.status == 200)
            let json = try response.json()
            #expect(json["id"] as? String == "j/1")
            #expect(json["q"] as? String == "a b&c")
            #expect(json["agent"] as? String == "probe")
            #expect(json["remote"] as? String == "127.0.0.1")
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405() async throws {
        try await withServer(makeRouter()) { port in
            let missing = try await rawRequest(port: port, "GET", "/v2/nothing")
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "application/problem+json")
            #expect(try missing.json()["code"] as? String == "not_found")

            let wrong = try await rawRequest(port: port, "DELETE", "/echo")
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "POST")
            #expect(try wrong.json()["code"] as? String == "method_not_allowed")
        }
    }

    @Test func jsonBodyIsEchoedThroughURLSession() async throws {
        try await withServer(makeRouter()) { port in
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/echo")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(Item(name: "ação ✓", count: 3))
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 201)
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(try JSONDecoder().decode(Item.self, from: data) == Item(name: "ação ✓", count: 3))
        }
    }

    @Test func invalidJSONIs400Problem() async throws {
        try await withServer(makeRouter()) { port in
            let response = try await rawRequest(port: port, "POST", "/echo", body: #"{"name":"x"}"#)
            #expect(response.status == 400)
            let json = try response.json()
            #expect(json["code"] as? String == "invalid_json")
            #expect(json["field"] as? String == "count")
        }
    }

    @Test func requestIDIsEchoedOrGenerated() async throws {
        try await withServer(makeRouter()) { port in
            let given = try await rawRequest(port: port, "GET", "/v1/journeys/1/token", headers: ["X-Request-ID": "abc-123"])
            #expect(given.header("X-Request-ID") == "abc-123")
            let unsafe = try await rawRequest(port: port, "GET", "/v1/journeys/1/token", headers: ["X-Request-ID": "a b\"c"])
            let generated = try #require(unsafe.header("X-Request-ID"))
            #expect(generated != "a b\"c" && !generated.isEmpty)
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withServer(makeRouter()) { port in
            let statuses = try await onThread {
                let socket = try RawSocket(port: port)
                var statuses: [Int] = []
                for index in 0..<5 {
                    try socket.send("GET /v1/journeys/\(index)/token HTTP/1.1\r\nHost: x\r\n\r\n")
                    statuses.append(try socket.readResponse().status)
                }
                return statuses
            }
            #expect(statuses == [200, 200, 200, 200, 200])
        }
    }
}
