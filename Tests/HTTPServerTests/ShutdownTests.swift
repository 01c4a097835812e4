import Foundation
import HTTPServer
import JourneyTesting
import Testing

@Suite("HTTPServer shutdown")
struct ShutdownTests {
    /// How long a client waits for the answer to a request the test holds (a bound for a hang).
    static let held = Duration.seconds(60)

    /// `/work` stays in flight until the test opens `release`; `/ping` answers at once.
    func makeRouter(release: TestGate) -> Router {
        var router = Router()
        router.get("/work") { _ in
            await release.wait()
            return .text("done")
        }
        router.get("/ping") { _ in .text("pong") }
        return router
    }

    /// Returns once the server answers new requests with 503: its drain has begun.
    func waitForTheDrain(port: Int) async throws {
        try await waitUntil("the server drains") { (try? await rawRequest(port: port, "GET", "/ping"))?.status == 503 }
    }

    @Test func gracefulShutdownLetsAnInFlightRequestFinish() async throws {
        let release = TestGate()
        let server = HTTPServer(
            configuration: .init(port: 0), router: makeRouter(release: release), accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let response = rawRequest(port: port, "GET", "/work", timeout: Self.held)
        try await waitUntil("the request is in flight") { release.waiting == 1 }
        let shutdownStarted = ContinuousClock.now
        async let shutdown: Void = server.shutdown()
        try await waitForTheDrain(port: port)
        release.open()
        await shutdown
        let finished = try await response
        #expect(finished.status == 200)
        #expect(finished.text == "done")
        #expect(ContinuousClock.now - shutdownStarted < .seconds(3))
        #expect(server.port == nil)
        await #expect(throws: (any Error).self) { try await rawRequest(port: port, "GET", "/work") }
    }

    @Test func requestsArrivingDuringTheDrainGet503AndAClose() async throws {
        let release = TestGate()
        let server = HTTPServer(
            configuration: .init(port: 0), router: makeRouter(release: release), accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let first = rawRequest(port: port, "GET", "/work", timeout: Self.held)
        try await waitUntil("the request is in flight") { release.waiting == 1 }
        async let shutdown: Void = server.shutdown()
        try await waitForTheDrain(port: port)
        let late = try await rawRequest(port: port, "GET", "/work")
        #expect(late.status == 503)
        #expect(late.header("Connection")?.lowercased() == "close")
        release.open()
        #expect(try await first.status == 200)
        await shutdown
    }

    @Test func runReturnsAfterCancellation() async throws {
        let release = TestGate()
        let server = HTTPServer(
            configuration: .init(port: 0), router: makeRouter(release: release), accessLog: AccessLogEntry.discard)
        let service = Task { try await server.run() }
        let port = try await waitFor("the server listens") { server.port }
        async let response = rawRequest(port: port, "GET", "/work", timeout: Self.held)
        try await waitUntil("the request is in flight") { release.waiting == 1 }
        service.cancel()
        try await waitForTheDrain(port: port)
        release.open()
        try await service.value
        #expect(try await response.status == 200)
    }

    @Test func shutdownGivesUpOnStragglersAfterTheTimeout() async throws {
        let release = TestGate()
        defer { release.open() }
        let configuration = HTTPServer.Configuration(port: 0, shutdownTimeout: .milliseconds(200))
        let server = HTTPServer(
            configuration: configuration, router: makeRouter(release: release), accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let response = rawRequest(port: port, "GET", "/work", timeout: Self.held)
        try await waitUntil("the request is in flight") { release.waiting == 1 }
        let started = ContinuousClock.now
        await server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(2))
        // The straggler either gets a 503 or sees its connection closed, never a hang.
        if let answer = try? await response {
            #expect(answer.status == 503)
        }
        await server.shutdown()
    }
}
