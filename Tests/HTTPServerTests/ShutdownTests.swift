import Foundation
import HTTPServer
import Testing

@Suite("HTTPServer shutdown")
struct ShutdownTests {
    func makeRouter(entered: Flag, sleep: Duration) -> Router {
        var router = Router()
        router.get("/work") { _ in
            entered.raise()
            try await Task.sleep(for: sleep)
            return .text("done")
        }
        return router
    }

    @Test func gracefulShutdownLetsAnInFlightRequestFinish() async throws {
        let entered = Flag()
        let server = HTTPServer(configuration: .init(port: 0), router: makeRouter(entered: entered, sleep: .milliseconds(300)),
                                accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let response = rawRequest(port: port, "GET", "/work")
        #expect(await entered.wait())
        let shutdownStarted = ContinuousClock.now
        await server.shutdown()
        let finished = try await response
        #expect(finished.status == 200)
        #expect(finished.text == "done")
        #expect(ContinuousClock.now - shutdownStarted < .seconds(3))
        #expect(server.port == nil)
        await #expect(throws: (any Error).self) { try await rawRequest(port: port, "GET", "/work") }
    }

    @Test func requestsArrivingDuringTheDrainGet503AndAClose() async throws {
        let entered = Flag()
        let server = HTTPServer(configuration: .init(port: 0), router: makeRouter(entered: entered, sleep: .milliseconds(600)),
                                accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let first = rawRequest(port: port, "GET", "/work")
        #expect(await entered.wait())
        async let shutdown: Void = server.shutdown()
        try await Task.sleep(for: .milliseconds(100))
        let late = try await rawRequest(port: port, "GET", "/work")
        #expect(late.status == 503)
        #expect(late.header("Connection")?.lowercased() == "close")
        #expect(try await first.status == 200)
        await shutdown
    }

    @Test func runReturnsAfterCancellation() async throws {
        let entered = Flag()
        let server = HTTPServer(configuration: .init(port: 0), router: makeRouter(entered: entered, sleep: .milliseconds(200)),
                                accessLog: AccessLogEntry.discard)
        let service = Task { try await server.run() }
        let deadline = ContinuousClock.now + .seconds(5)
        while server.port == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let port = try #require(server.port)
        async let response = rawRequest(port: port, "GET", "/work")
        #expect(await entered.wait())
        service.cancel()
        try await service.value
        #expect(try await response.status == 200)
    }

    @Test func shutdownGivesUpOnStragglersAfterTheTimeout() async throws {
        let entered = Flag()
        let configuration = HTTPServer.Configuration(port: 0, shutdownTimeout: .milliseconds(200))
        let server = HTTPServer(configuration: configuration, router: makeRouter(entered: entered, sleep: .seconds(30)),
                                accessLog: AccessLogEntry.discard)
        try server.start()
        let port = try #require(server.port)
        async let response = rawRequest(port: port, "GET", "/work")
        #expect(await entered.wait())
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
