import Foundation
@testable import HTTPServer
import Testing

/// Slow-body clients: a deadline for the whole request body, and the per-address limit counting
/// IPv6 clients per /64.
@Suite("HTTPServer slow bodies")
struct SlowBodyTests {
    func makeRouter() -> Router {
        var router = Router()
        router.post("/echo") { request in .text("\(request.body.count)") }
        router.post("/slow") { _ in
            try await Task.sleep(for: .milliseconds(1500))
            return .text("done")
        }
        return router
    }

    /// Announces a 1 MiB body, then sends one byte every `every` until the server closes the
    /// connection or `limit` passes; how long the connection lived, nil if it outlived `limit`.
    func trickleBody(port: Int, every: Duration, limit: Duration) async throws -> Duration? {
        try await onThread {
            let socket = try RawSocket(port: port)
            try socket.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            let headSent = ContinuousClock.now
            while ContinuousClock.now - headSent < limit {
                if socket.closed(within: every) { return ContinuousClock.now - headSent }
                do { try socket.send("x") } catch { return ContinuousClock.now - headSent }
            }
            return nil
        }
    }

    @Test func bodySentOneByteAtATimeIsCutAtTheBodyDeadline() async throws {
        // Each byte restarts the idle timeout (30 s); the body deadline (1 s) is not restarted.
        let configuration = HTTPServer.Configuration(
            port: 0, connectionTimeout: .seconds(30),
            requestBodyTimeout: .seconds(1))
        let server = HTTPServer(configuration: configuration, router: makeRouter(), accessLog: AccessLogEntry.discard)
        try server.start()
        do {
            let port = try #require(server.port)
            let lived = try await trickleBody(port: port, every: .milliseconds(200), limit: .seconds(10))
            let cutAfter = try #require(lived, "the trickling body was never cut")
            #expect(cutAfter >= .milliseconds(900))
            #expect(server.lateBodiesCut == 1)
            #expect(server.lateHeadsCut == 0)
            // A body that arrives in time is answered, and so is a request without a body.
            let posted = try await rawRequest(
                port: port, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
            #expect(posted.text == "5")
            await server.shutdown()
        } catch {
            await server.shutdown()
            throw error
        }
    }

    @Test func aHandlerRunningPastTheBodyDeadlineIsNotCut() async throws {
        // The deadline covers what the client sends, not the time the server takes to answer.
        let configuration = HTTPServer.Configuration(port: 0, requestBodyTimeout: .seconds(1))
        try await withServer(makeRouter(), configuration: configuration) { port in
            let answer = try await rawRequest(
                port: port, "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
            #expect(answer.text == "done")
        }
    }

    @Test func withoutABodyDeadlineATricklingBodyOutlivesIt() async throws {
        // A client that closes mid-body leaves MHD's side open until a timeout: do not wait for it.
        let configuration = HTTPServer.Configuration(
            port: 0, connectionTimeout: .seconds(30),
            requestBodyTimeout: .zero, shutdownTimeout: .milliseconds(100))
        try await withServer(makeRouter(), configuration: configuration) { port in
            let lived = try await trickleBody(port: port, every: .milliseconds(200), limit: .milliseconds(1500))
            #expect(lived == nil, "cut after \(lived.map { "\($0)" } ?? "")")
        }
    }

    @Test func ipv6ClientsAreCountedPerSlash64() throws {
        typealias Key = ConnectionsPerAddress.Key
        let a = try #require(Key(numeric: "2001:db8:1:2::1"))
        #expect(Key(numeric: "2001:db8:1:2:ffff:ffff:ffff:ffff") == a)
        #expect(Key(numeric: "2001:db8:1:2:8000::42") == a)
        #expect(Key(numeric: "2001:db8:1:3::1") != a)
        // IPv4 counts per address, the same whether it arrives plain or IPv4-mapped.
        #expect(Key(numeric: "192.0.2.1") == Key(numeric: "::ffff:192.0.2.1"))
        #expect(Key(numeric: "192.0.2.1") != Key(numeric: "192.0.2.2"))
        #expect(Key(numeric: "::1") != Key(numeric: "127.0.0.1"))
        #expect(Key(numeric: "not an address") == nil)
    }

    @Test func negativeBodyTimeoutIsRejected() {
        let server = HTTPServer(
            configuration: .init(port: 0, requestBodyTimeout: .seconds(-1)), router: makeRouter(),
            accessLog: AccessLogEntry.discard)
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.code == .invalidConfiguration }
    }
}
