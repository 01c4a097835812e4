import Observability
import Testing

@Suite struct MetricsRegistryTests {
    @Test func countersAndGaugesRenderInTheTextFormat() {
        let registry = MetricsRegistry()
        registry.increment("http_requests_total", help: "Requests.", labels: ["route": "/v1/journeys", "status": "201"])
        registry.increment("http_requests_total", help: "Requests.", labels: ["status": "201", "route": "/v1/journeys"])
        registry.increment("http_requests_total", help: "Requests.", labels: ["route": "/healthz", "status": "200"])
        registry.set("journeys_by_state", help: "Journeys.", labels: ["state": "completed"], to: 7)
        let text = registry.render()
        #expect(text.contains("# TYPE http_requests_total counter"))
        #expect(text.contains(#"http_requests_total{route="/v1/journeys",status="201"} 2"#))
        #expect(text.contains(#"http_requests_total{route="/healthz",status="200"} 1"#))
        #expect(text.contains(#"journeys_by_state{state="completed"} 7"#))
        #expect(text.range(of: "http_requests_total")!.lowerBound < text.range(of: "journeys_by_state")!.lowerBound)
    }

    @Test func histogramsAreCumulativeWithSumAndCount() {
        let registry = MetricsRegistry()
        for value in [0.002, 0.02, 0.2, 20] {
            registry.observe("latency_seconds", help: "Latency.", labels: ["route": "/x"], value: value, buckets: [0.01, 0.1, 1])
        }
        let text = registry.render()
        #expect(text.contains(#"latency_seconds_bucket{route="/x",le="0.01"} 1"#))
        #expect(text.contains(#"latency_seconds_bucket{route="/x",le="0.1"} 2"#))
        #expect(text.contains(#"latency_seconds_bucket{route="/x",le="1"} 3"#))
        #expect(text.contains(#"latency_seconds_bucket{route="/x",le="+Inf"} 4"#))
        #expect(text.contains(#"latency_seconds_count{route="/x"} 4"#))
        #expect(text.contains("latency_seconds_sum{route=\"/x\"} 20.222"))
    }

    @Test func labelValuesAreEscaped() {
        let registry = MetricsRegistry()
        registry.increment("odd_total", help: "Odd.", labels: ["v": "a\"b\\c\nd"])
        #expect(registry.render().contains(#"odd_total{v="a\"b\\c\nd"} 1"#))
    }
}
