import Foundation
import HTTPServer
import Testing

@Suite("HTTPServer connection handling")
struct ConnectionHandlingTests {
    func makeRouter() -> Router {
        var router = Router()
        router.get("/ping") { _ in .text("pong") }
        return router
    }

    @Test func slowClientDoesNotBlockOthersAndIsCutAfterTheTimeout() async throws {
        let configuration = HTTPServer.Configuration(port: 0, connectionTimeout: .seconds(1))
        try await withServer(makeRouter(), configuration: configuration) { port in
            let slow = try await onThread {
                let socket = try RawSocket(port: port, timeout: .seconds(6))
                try socket.send("GET /ping HTTP/1.1\r\nHost: x\r\nX-Half: ")
                return socket
            }
            let stalledAt = ContinuousClock.now
            for _ in 0..<10 {
                let response = try await rawRequest(port: port, "GET", "/ping")
                #expect(response.status == 200)
            }
            let closed = try await onThread { slow.waitForClose() }
            let cutAfter = ContinuousClock.now - stalledAt
            #expect(closed)
            #expect(cutAfter >= .milliseconds(500))
        }
    }

    @Test func malformedRequestLineGets4xxAndServerKeepsServing() async throws {
        try await withServer(makeRouter()) { port in
            let garbage = try await rawRequest(port: port, "THIS IS NOT HTTP\r\n\r\n")
            #expect((400..<500).contains(garbage.status))
            let badHeader = try await rawRequest(port: port, "GET /ping HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
            #expect((400..<500).contains(badHeader.status))
            let binary = try await onThread {
                let socket = try RawSocket(port: port)
                try socket.send([0x16, 0x03, 0x01, 0x00, 0xff, 0x01, 0x00, 0x00, 0x0d, 0x0a, 0x0d, 0x0a])
                return socket.waitForClose()
            }
            #expect(binary)
            for _ in 0..<3 {
                #expect(try await rawRequest(port: port, "GET", "/ping").text == "pong")
            }
        }
    }

    @Test func startFailsWhenThePortIsTaken() async throws {
        try await withServer(makeRouter()) { port in
            let second = HTTPServer(configuration: .init(port: port), router: makeRouter(), accessLog: AccessLogEntry.discard)
            #expect(throws: HTTPServerError.self) { try second.start() }
        }
    }

    @Test func invalidConfigurationIsRejected() {
        let server = HTTPServer(configuration: .init(port: 70000), router: makeRouter(), accessLog: AccessLogEntry.discard)
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.code == .invalidConfiguration }
    }
}
