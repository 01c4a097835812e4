import Foundation
import HTTPServer
import Testing

@Suite("HTTPServer body limit")
struct BodyLimitTests {
    static let limit = 2048

    func makeRouter() -> Router {
        var router = Router()
        router.post("/upload") { request in .text("got \(request.body.count)") }
        router.get("/ping") { _ in .text("pong") }
        return router
    }

    var configuration: HTTPServer.Configuration { .init(port: 0, maxBodySize: Self.limit) }

    @Test func bodyAtTheLimitIsAccepted() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await rawRequest(port: port, "POST", "/upload", body: String(repeating: "a", count: Self.limit))
            #expect(response.status == 200)
            #expect(response.text == "got \(Self.limit)")
        }
    }

    @Test func tooLargeContentLengthIs413BeforeTheBodyIsRead() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await rawRequest(
                port: port,
                """
                POST /upload HTTP/1.1\r
                Host: x\r
                Content-Length: 10000000\r
                Expect: 100-continue\r
                \r

                """)
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try response.json()["code"] as? String == "payload_too_large")
            #expect(try await rawRequest(port: port, "GET", "/ping").status == 200)
        }
    }

    @Test func tooLargeContentLengthWithBodyAlreadySentIs413() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let response = try await rawRequest(
                port: port, "POST", "/upload", body: String(repeating: "b", count: Self.limit + 1))
            #expect(response.status == 413)
            #expect(try response.json()["code"] as? String == "payload_too_large")
        }
    }

    @Test func tooLargeChunkedBodyIs413() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            var request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            for _ in 0..<5 {
                request += "3e8\r\n" + String(repeating: "c", count: 1000) + "\r\n"
            }
            request += "0\r\n\r\n"
            let response = try await rawRequest(port: port, request)
            #expect(response.status == 413)
            #expect(try response.json()["code"] as? String == "payload_too_large")
            #expect(try await rawRequest(port: port, "GET", "/ping").status == 200)
        }
    }

    @Test func smallChunkedBodyIsAccepted() async throws {
        try await withServer(makeRouter(), configuration: configuration) { port in
            let request =
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            let response = try await rawRequest(port: port, request)
            #expect(response.status == 200)
            #expect(response.text == "got 11")
        }
    }
}
