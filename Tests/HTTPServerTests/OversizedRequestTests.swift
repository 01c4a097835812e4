import Foundation
import HTTPServer
import Testing

/// Every body over the limit gets a 413 problem, whatever its framing and however much follows;
/// every head over the limit a 431 problem.
@Suite("HTTPServer oversized requests")
struct OversizedRequestTests {
    static let limit = 2048

    func makeRouter() -> Router {
        var router = Router()
        router.post("/upload") { request in .text("got \(request.body.count)") }
        router.get("/ping") { _ in .text("pong") }
        return router
    }

    var configuration: HTTPServer.Configuration { .init(port: 0, maxBodySize: Self.limit) }

    @Test(arguments: [3 << 20, 20 << 20])
    func aHugeChunkedBodyIsAnswered413(size: Int) async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await onThread {
                let socket = try RawSocket(port: port)
                try socket.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                let chunk = Array(("1000\r\n" + String(repeating: "c", count: 4096) + "\r\n").utf8)
                var sent = 0
                while sent < size {
                    do { try socket.send(chunk) } catch { break }
                    sent += 4096
                }
                try? socket.send("0\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.json()["code"] as? String == "payload_too_large")
            #expect(try await rawRequest(port: port, "GET", "/ping").status == 200)
        }
    }

    @Test(arguments: [40 << 10, 64 << 10, 150 << 10])
    func aHugeHeaderIsAnswered431WithAProblem(size: Int) async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await rawRequest(
                port: port, "GET", "/ping",
                headers: ["Authorization": "Bearer " + String(repeating: "h", count: size)])
            #expect(response.status == 431)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.json()["code"] as? String == "header_fields_too_large")
            #expect(try await rawRequest(port: port, "GET", "/ping").status == 200)
        }
    }

    @Test func aHeadUnderTheLimitIsServed() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await rawRequest(
                port: port, "GET", "/ping",
                headers: ["Authorization": "Bearer " + String(repeating: "h", count: 16 << 10)])
            #expect(response.status == 200)
        }
    }
}
