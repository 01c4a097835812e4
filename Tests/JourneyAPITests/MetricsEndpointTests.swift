import AccessControl
import Foundation
import JourneyEngine
import HTTPServer
@testable import JourneyAPI
import JourneyTesting
import Synchronization
import Testing

/// `/metrics`: bounded method labels, gauges cached by the injected clock, optional bearer token.
@Suite struct MetricsEndpointTests {
    /// The service over a fresh database with `configure` applied and a test clock.
    func withMetricsService(
        clock: TestClock = TestClock(), _ configure: (inout APIServer.Configuration) -> Void = { _ in },
        _ body: (TestClient, APIServer) async throws -> Void
    ) async throws {
        try await TestDatabase.with { db in
            var dependencies = try JourneyDependencies.development(database: db.app)
            dependencies.clock = clock.read
            var configuration = APIServer.Configuration()
            configure(&configuration)
            let service = APIServer(
                configuration: configuration, journeys: Journeys(database: db.app, dependencies: dependencies.engine),
                keys: APIKeyStore(client: db.app), dependencies: dependencies)
            try await body(TestClient(router: service.router), service)
        }
    }

    @Test func unknownMethodsAreCountedAsOther() async throws {
        try await withMetricsService { client, service in
            for method in ["BREW", "PROPFIND", "X-\(UUID().uuidString)"] {
                _ = try await client.send(method, "/metrics")
                _ = try await client.send(method, "/nowhere")
            }
            _ = try await client.send("DELETE", "/healthz")
            let text = service.metrics.render()
            #expect(text.contains(#"http_requests_total{method="other",route="/metrics",status="405"} 3"#))
            #expect(text.contains(#"http_requests_total{method="other",route="unmatched",status="404"} 3"#))
            #expect(text.contains(#"http_requests_total{method="DELETE",route="/healthz",status="405"} 1"#))
            #expect(!text.contains("BREW") && !text.contains("PROPFIND") && !text.contains("X-"))
        }
    }

    @Test func gaugesAreReadOncePerLifetimeOfTheInjectedClock() async throws {
        let clock = TestClock()
        let reads = Atomic<Int>(0)
        let reader: MetricsGaugeReader = { metrics, now in
            let count = reads.add(1, ordering: .relaxed).newValue
            metrics.set("test_gauge_reads", help: "Reads so far.", to: Double(count))
            #expect(now == clock.now())
        }
        try await withMetricsService(
            clock: clock,
            {
                $0.metricsGauges = [reader]; $0.metricsGaugeLifetime = .seconds(5)
            }
        ) { client, _ in
            for _ in 0..<3 {
                let scrape = try await client.send("GET", "/metrics")
                #expect(scrape.status == 200)
                #expect(scrape.text.contains("test_gauge_reads 1"))
                #expect(scrape.text.contains(#"journeys_by_state{state="completed"} 0"#))
            }
            clock.advance(by: 4.9)
            #expect(try await client.send("GET", "/metrics").text.contains("test_gauge_reads 1"))
            clock.advance(by: 0.2)
            #expect(try await client.send("GET", "/metrics").text.contains("test_gauge_reads 2"))
            clock.advance(by: -60)
            #expect(try await client.send("GET", "/metrics").text.contains("test_gauge_reads 3"))
            #expect(reads.load(ordering: .relaxed) == 3)
        }
    }

    @Test func bearerTokenIsRequiredWhenConfigured() async throws {
        try await withMetricsService({ $0.metricsToken = "scrape-token-1234" }) { client, _ in
            let missing = try await client.send("GET", "/metrics")
            #expect(missing.status == 401)
            #expect(missing.headers["content-type"] == "application/problem+json")
            #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(missing.code == "metrics_unauthorized")
            #expect(!missing.text.contains("scrape-token-1234"))
            let wrong = try await client.send("GET", "/metrics", bearer: "scrape-token-1235")
            #expect(wrong.status == 401)
            let prefix = try await client.send("GET", "/metrics", bearer: "scrape-token-123")
            #expect(prefix.status == 401)
            let basic = try await client.send("GET", "/metrics", headers: ["Authorization": "Basic c2NyYXBlLXRva2VuLTEyMzQ="])
            #expect(basic.status == 401)
            let right = try await client.send("GET", "/metrics", bearer: "scrape-token-1234")
            #expect(right.status == 200)
            #expect(right.text.contains("http_requests_total"))
            // Health and readiness stay open.
            #expect(try await client.send("GET", "/healthz").status == 200)
        }
    }

    @Test func stackExposesBacklogLagAndWorkGauges() async throws {
        try await TestStack.with { stack in
            let text = try await stack.send("GET", "/metrics").text
            for line in [
                "journeys_webhook_backlog 0", "journeys_webhook_failing 0", "journeys_webhook_oldest_pending_seconds 0",
                "journeys_work_failing 0", "journeys_due_overdue 0", "journeys_awaiting_result_over_sla 0",
            ] {
                #expect(text.contains(line), "missing \(line)")
            }
        }
    }
}
