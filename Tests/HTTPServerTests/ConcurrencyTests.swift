import Foundation
import HTTPServer
import JourneyTesting
import Testing

@Suite("HTTPServer concurrency")
struct ConcurrencyTests {
    @Test func suspendedHandlersOverlapAndDoNotBlockMHDThreads() async throws {
        let overlap = Overlap()
        let release = TestGate()
        var router = Router()
        router.get("/slow/{n}") { request in
            overlap.enter()
            defer { overlap.leave() }
            await release.wait()
            return .text(request.pathParameters["n"] ?? "")
        }
        router.get("/ping") { _ in .text("pong") }
        let clients = 60
        try await withServer(router) { port in
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<clients {
                    group.addTask {
                        let response = try await rawRequest(port: port, "GET", "/slow/\(index)", timeout: .seconds(60))
                        #expect(response.status == 200)
                        return response.text
                    }
                }
                // While every MHD thread has suspended slow requests, a fast one still gets through.
                try await waitUntil("20 handlers suspended at once") { release.waiting >= 20 }
                let ping = try await rawRequest(port: port, "GET", "/ping")
                #expect(ping.status == 200)
                #expect(release.waiting >= 20, "the slow requests were still held")
                release.open()
                var bodies: Set<String> = []
                for try await body in group { bodies.insert(body) }
                return bodies
            }
            // Structural proof, not a timing bound (timings belong in benchmarks): many handlers
            // were suspended at once, and a fast request got through while they waited.
            #expect(bodies == Set((0..<clients).map(String.init)))
            #expect(overlap.peak >= 20)
        }
    }
}
